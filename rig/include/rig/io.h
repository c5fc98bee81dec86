// Reading and writing characters and clip sources.
// glTF/GLB through tinygltf (accessors decoded here: normalized integers,
// strides, sparse); FBX, BVH, DAE and the rest through Assimp.
#pragma once

#include <string>

#include "rig/model.h"

namespace rig {

struct Status {
  enum class Code { kOk, kNotFound, kUnsupported, kBadData, kIoError };
  Code code = Code::kOk;
  std::string message;  // one line, says what and where
  bool ok() const { return code == Code::kOk; }
  static Status Ok() { return {}; }
  static Status Error(Code c, std::string m) { return {c, std::move(m)}; }
};

// Loads any supported file. A file without a skinned mesh (BVH, animation-only
// FBX) loads as a clip source: skeleton and clips, empty mesh and skin.
// Never throws; never crashes on a malformed file.
Status load(const std::string& path, Character& out);

// Writes a binary glTF. When `c.gltf` holds the original document it is
// edited in place: joints, nodes, inverse bind matrices, JOINTS/WEIGHTS and
// animation channels are updated or added; everything else is kept. Otherwise
// a new document is built from the model.
// Metres per unit for a model `height_in_units` tall (glTF says metres, but
// centimetre exports are common; FBX declares its unit and is trusted).
double guess_meters_per_unit(double height_in_units);

Status save_glb(const Character& c, const std::string& path);

}  // namespace rig
