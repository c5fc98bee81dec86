// Checks and repairs shared by the file readers (internal to rig/).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig/io/io.h"
#include "rig/model/model.h"

namespace rig {

// A one-line kBadData status naming the file being read.
inline Status bad_data(const std::string& path, const std::string& what) {
  return Status::Error(Status::Code::kBadData, path + ": " + what);
}

// `i` indexes `v` (the file's own indices are read as int).
template <typename T>
bool valid_index(int i, const std::vector<T>& v) {
  return i >= 0 && i < static_cast<int>(v.size());
}

// Makes every track's key times strictly increasing: of keys sharing a time
// the last is kept (the value from that time on). Returns how many keys were
// dropped. Times must already be sorted.
int make_key_times_increasing(Clip& clip);

// The whole BVH file at `path` checked against the grammar Assimp expects,
// with every count under its limit and every number finite (bvh_check.cpp):
// one-line kBadData naming the line, or Ok when Assimp may parse it.
Status check_bvh(const std::string& path);

// A glTF/GLB whose JSON requires a compression extension tailrig cannot
// decode (Draco, meshopt): kUnsupported naming it, else Ok. Read from the
// JSON alone, before any buffer: a meshopt file's fallback buffer has no
// bytes, so a full parse fails first with a message about its length.
Status check_gltf_compression(const std::string& path);
// The same for a GLB held in memory (`name` in the message).
Status check_glb_compression(std::string_view glb, const std::string& name);

// True for the glTF mesh compression extensions tailrig cannot decode or
// rewrite (Draco, meshopt).
bool is_compression_extension(std::string_view name);

}  // namespace rig
