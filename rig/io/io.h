// Reading and writing characters and clip sources.
// glTF/GLB through tinygltf (accessors decoded here: normalized integers,
// strides, sparse); FBX, BVH, DAE and the rest through Assimp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig/model/model.h"
#include "rig/model/status.h"

namespace rig {

// Limits on what a file may hold, so no input can make a loop or an
// allocation unbounded. Each violation is a one-line kBadData error.
inline constexpr int kMaxJoints = 10000;                 // joints in one skeleton
inline constexpr int kMaxNodeDepth = 1000;               // nesting of nodes / BVH joints
inline constexpr size_t kMaxVertices = size_t{1} << 24;  // skinned vertices in one file
inline constexpr size_t kMaxAccessorElements = size_t{1} << 24;  // elements in one accessor
inline constexpr long kMaxFrames = 1000000;              // keys in one track / BVH frames
inline constexpr double kMaxClipSeconds = 24 * 3600.0;   // longest clip or key time
// Largest coordinate accepted (positions, translations, matrix entries): far
// beyond any character in any unit, far below where float or int arithmetic
// in welding and inversion breaks down.
inline constexpr double kMaxCoordinate = 1e9;

// The format table: the format a path names by its extension (any case),
// kOther for one we do not read.
FileFormat format_of_path(const std::string& path);
// A format a character (a skinned mesh) can come in: GLB, glTF, FBX, DAE. What
// a folder of characters is scanned for; BVH holds clips only.
bool is_character_format(FileFormat format);

// Loads any supported file. A file without a skinned mesh (BVH, animation-only
// FBX) loads as a clip source: skeleton and clips, empty mesh and skin.
// Never throws; never crashes on a malformed file.
// Repairs (repeated key times, zero quaternions, vertices without weight)
// are listed in the returned status's `notes`.
Status load(const std::string& path, Character& out);

// Writes a binary glTF. When `c.gltf` holds the original document it is
// edited in place: joints, nodes, inverse bind matrices, JOINTS/WEIGHTS and
// animation channels are updated or added; everything else is kept. Otherwise
// a new document is built from the model.
// Metres per unit for a model `height_in_units` tall (glTF says metres, but
// centimetre exports are common; FBX declares its unit and is trusted).
double guess_meters_per_unit(double height_in_units);

// The file is written to a temporary file beside `path`, synced and renamed
// (rig/safe_write.h): any failure is a kIoError and leaves an existing file
// untouched. Writing over the file `c` was loaded from is refused. What is
// written is valid glTF: repairs made on the way (repeated key times,
// strided animation accessors, an invalid skin.skeleton) are listed in the
// returned status's `notes`.
Status save_glb(const Character& c, const std::string& path);

// The bytes save_glb writes, into `bytes` instead of a file (no temporary
// file, fsync or rename): for reading a written file straight back.
Status save_glb_bytes(const Character& c, std::string& bytes);

// rig::load of a GLB file holding `bytes` (as save_glb_bytes gives them),
// `name` standing for its path in messages and Character::source_path.
// External uris are not resolved: a GLB we write holds every byte.
Status load_glb_bytes(std::string_view bytes, const std::string& name, Character& out);

}  // namespace rig
