#include "rig/io/gltf/gltf_write_unread.h"

#include <map>
#include <set>
#include <vector>

#include "rig/io/gltf/gltf_document.h"
#include "rig/io/gltf/gltf_source.h"

namespace rig {

// Primitives the reader skips (strips, lines, points) keep their vertex
// data, indexed by their original skin's joint list: their JOINTS are
// remapped to the merged skin's order (a removed joint's influence goes to
// its nearest kept ancestor). Left as they were, strip-tail's removed tail
// joints shifted every later index (out of range, or the wrong bone).
Status remap_unread_primitives(gltf_doc::Writer& w, const Character& c,
                               const std::vector<std::vector<int>>& old_joints,
                               const std::map<int, int>& old_skin_of_node, const std::vector<int>& joint_node,
                               const std::vector<int>& skin_index_of_joint) {
  tinygltf::Model& m = w.m;
  std::set<std::pair<int, int>> read;
  for (const Mesh::Primitive& p : c.mesh.primitives) read.insert({p.mesh, p.primitive});
  std::vector<int> parent(m.nodes.size(), -1);
  for (size_t n = 0; n < m.nodes.size(); ++n)
    for (int ch : m.nodes[n].children)
      if (ch >= 0 && ch < static_cast<int>(parent.size())) parent[ch] = static_cast<int>(n);
  std::map<int, int> joint_of_node;
  for (size_t j = 0; j < joint_node.size(); ++j) joint_of_node[joint_node[j]] = static_cast<int>(j);
  auto new_index = [&](int node) {
    for (size_t hops = 0; node >= 0 && hops <= m.nodes.size(); node = parent[node], ++hops)
      if (auto it = joint_of_node.find(node); it != joint_of_node.end()) return skin_index_of_joint[it->second];
    return 0;
  };
  const bool wide = skin_index_of_joint.size() > 255;
  std::set<int> done;  // meshes (a mesh several nodes share is remapped once)
  for (const auto& [node, skin] : old_skin_of_node) {
    const int mesh = m.nodes[node].mesh;
    if (mesh < 0 || mesh >= static_cast<int>(m.meshes.size()) || skin < 0 ||
        skin >= static_cast<int>(old_joints.size()) || !done.insert(mesh).second)
      continue;
    std::vector<int> remap;  // the skin's old index -> the written skin's
    for (int node_of_joint : old_joints[skin]) remap.push_back(new_index(node_of_joint));
    for (int pi = 0; pi < static_cast<int>(m.meshes[mesh].primitives.size()); ++pi) {
      if (read.count({mesh, pi})) continue;
      auto& attrs = m.meshes[mesh].primitives[pi].attributes;
      for (auto& [name, accessor] : attrs) {
        if (name.rfind("JOINTS_", 0) != 0) continue;
        std::vector<double> values;
        int comps = 0;
        std::string err;
        if (!read_accessor(m, accessor, values, comps, err) || comps != 4)
          return Status::Error(Status::Code::kBadData, "mesh " + std::to_string(mesh) + " primitive " +
                                                           std::to_string(pi) + " " + name + ": " + err);
        std::vector<uint16_t> j16(values.size());
        std::vector<uint8_t> j8(values.size());
        for (size_t i = 0; i < values.size(); ++i) {
          const int old = static_cast<int>(values[i]);
          const int to = old >= 0 && old < static_cast<int>(remap.size()) ? remap[old] : 0;
          j16[i] = static_cast<uint16_t>(to);
          j8[i] = static_cast<uint8_t>(to);
        }
        const int count = static_cast<int>(values.size() / 4);
        accessor = wide ? w.add_accessor(j16, count, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4,
                                         TINYGLTF_TARGET_ARRAY_BUFFER, false)
                        : w.add_accessor(j8, count, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4,
                                         TINYGLTF_TARGET_ARRAY_BUFFER, false);
      }
    }
  }
  return Status::Ok();
}

}  // namespace rig
