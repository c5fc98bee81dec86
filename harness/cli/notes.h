// Repairs the readers and the writer made (rig::Status::notes), printed on
// stderr once a command has succeeded: a failing command prints one line.
#pragma once

#include <cstdio>

#include "rig/io/io.h"

namespace harness {

inline void print_notes(const char* command, const rig::Status& s) {
  for (const std::string& n : s.notes) std::fprintf(stderr, "%s: repaired: %s\n", command, n.c_str());
}

}  // namespace harness
