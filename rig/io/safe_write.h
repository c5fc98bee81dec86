// Writing files so that a failure is reported and never costs the previous
// file: bytes go to a temporary file in the target's folder, every write is
// checked, the file is fsync'ed and then renamed over the target. A reader, a
// crash or a kill sees either the old file or the complete new one.
// Targets that are not regular files (/dev/stdout, /dev/full, a FIFO) cannot
// be renamed over: they are written directly, still checking every write.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "rig/io/io.h"

namespace rig {

// One-line kIoError status on any failure (missing folder, a directory as
// target, disk full, permission denied), naming the path and the reason.
Status write_file_atomic(const std::string& path, std::string_view bytes);

// The same, the file's bytes being `pieces` one after the other (a large
// part written from where it lies, not copied into one string first).
Status write_file_atomic(const std::string& path, std::span<const std::string_view> pieces);

// True when both paths name the same existing file (hard links and symlinks
// included). False when either does not exist.
bool same_file(const std::string& a, const std::string& b);

}  // namespace rig
