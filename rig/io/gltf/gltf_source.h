// The original glTF document behind a loaded Character, and the mapping from
// model indices back to document indices (internal to rig/).
#pragma once

#include <tiny_gltf.h>

#include <string>
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

Status load_gltf(const std::string& path, Character& out);

}  // namespace rig
