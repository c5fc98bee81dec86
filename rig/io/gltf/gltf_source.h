// The original glTF document behind a loaded Character, and the mapping from
// model indices back to document indices (internal to rig/).
#pragma once

#include <tiny_gltf.h>

#include <functional>
#include <string>
#include <string_view>
#include <map>
#include <vector>

#include "rig/io/io.h"
#include "rig/model/model.h"

namespace rig {

struct GltfSource {
  tinygltf::Model model;
  std::vector<int> joint_nodes;  // per skeleton joint loaded from the file: node index
  std::vector<int> skinned_nodes;  // nodes with mesh + skin that were loaded
  // Per Mesh::Primitive: the node that instanced it (for its skin).
  std::vector<int> primitive_nodes;
  int animation_count = 0;
  // Mesh space -> world at bind (see load_gltf); file IBM = inverse_bind * this.
  Mat4 mesh_to_world = Mat4::Identity();  // clips [0, animation_count) come from animations[i]
  // Per glTF skin whose inverse bind matrices differ from the first's by a
  // constant (exporters bake each mesh object's offset into its skin, e.g. a
  // sword mesh placed at the hand): that skin's mesh space -> world.
  std::map<int, Mat4> skin_mesh_to_world;
  // Vertices whose weights the reader changed in float32 (settled to sum 1,
  // merged, or given a joint), with the file's own influences (empty: it had
  // none): the writer puts those back where it can (gltf_weights.h). Empty:
  // every weight is held as the file holds it.
  struct SettledVertex {
    int vertex = -1;
    std::vector<Influence> as_read;
  };
  std::vector<SettledVertex> settled;
};

// Reads accessor `index` as doubles: count * components values, normalized
// integers mapped to [-1,1]/[0,1], byte stride and sparse substitution applied.
// Returns false with a message when the accessor does not fit its buffers.
bool read_accessor(const tinygltf::Model& m, int index, std::vector<double>& out, int& components,
                   std::string& error);

// Elements per block of read_accessor_blocks (a multiple of 3 and 4: whole
// triangles and vec4s).
inline constexpr size_t kAccessorBlock = 12 * 1024;

// True when accessor `index` exists and can be read in ranges: it has a
// buffer view and no sparse values.
bool reads_in_ranges(const tinygltf::Model& m, int index);

// Elements [first, first + n) (clipped to the accessor) of an accessor that
// reads_in_ranges, checked as read_accessor checks the whole: the same
// messages, its elements numbered as in the whole accessor.
bool read_accessor_range(const tinygltf::Model& m, int index, size_t first, size_t n, std::vector<double>& out,
                         int& components, std::string& error);

// read_accessor in blocks of whole elements, in order: `use(first, values)`
// gets the values of elements [first, first + values.size() / components).
// Every block is checked as read_accessor checks the whole accessor, and a
// failure anywhere returns false with its message, even after `use` has seen
// earlier blocks; once `use` returns false it sees no more blocks, while the
// rest is still checked (so a caller that stops at a bad element reports it
// only when read_accessor would have succeeded).
bool read_accessor_blocks(const tinygltf::Model& m, int index, int& components, std::string& error,
                          const std::function<bool(size_t first, const std::vector<double>& values)>& use);

Status load_gltf(const std::string& path, Character& out);
// load_gltf of a GLB held in memory (`name` standing for its path).
Status load_gltf_bytes(std::string_view glb, const std::string& name, Character& out);

}  // namespace rig
