// A loaded glTF document's skinned triangle primitives into the model's mesh
// and skin (see gltf_read_mesh.h).
#include "rig/io/gltf/gltf_read_mesh.h"

#include <span>

#include "rig/io/gltf/gltf_weights.h"
#include "rig/io/read_checks.h"

namespace rig {
namespace {

// Appends one primitive's positions (placed by As) to `mesh`; the accessor
// read in blocks, its errors before the count limit before a vertex's.
Status read_positions(const std::string& path, const tinygltf::Model& m, const int mesh_index,
                      const int position_accessor, const Mat4& As, Mesh& mesh, int& count) {
  const size_t before = mesh.positions.size();
  const int primitive = static_cast<int>(mesh.primitives.size());
  std::string err, bad_vertex;
  int comps = 0;
  const bool read = read_accessor_blocks(m, position_accessor, comps, err, [&](size_t first, const std::vector<double>& pos) {
    if (comps != 3 || before + first + pos.size() / 3 > kMaxVertices) return false;
    for (size_t i = 0; i < pos.size() / 3; ++i) {
      mesh.positions.emplace_back((As * Eigen::Vector4d(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], 1.0)).head<3>());
      if (!mesh.positions.back().allFinite() || mesh.positions.back().cwiseAbs().maxCoeff() > kMaxCoordinate) {
        bad_vertex = "mesh " + std::to_string(mesh_index) + " vertex " + std::to_string(first + i) +
                     " lies at an implausible position";
        return false;
      }
      mesh.source_primitive.push_back(primitive);
      mesh.source_index.push_back(static_cast<int>(first + i));
    }
    return true;
  });
  if (!read || comps != 3) return bad_data(path, "mesh " + std::to_string(mesh_index) + " positions: " + err);
  const size_t n = m.accessors[position_accessor].count;
  if (before + n > kMaxVertices) return bad_data(path, "more than " + std::to_string(kMaxVertices) + " skinned vertices");
  if (!bad_vertex.empty()) return bad_data(path, bad_vertex);
  count = static_cast<int>(n);
  return Status::Ok();
}

// Appends one primitive's triangles (its indices, or 0..count-1, in
// triples) to `mesh`, `base` added.
Status read_triangles(const std::string& path, const tinygltf::Model& m, const int mesh_index,
                      const tinygltf::Primitive& prim, const int base, const int count, Mesh& mesh) {
  std::string err;
  bool out_of_range = false;
  auto add = [&](const std::vector<double>& idx) {
    for (size_t t = 0; t + 2 < idx.size(); t += 3) {
      std::array<int, 3> tri;
      for (int k = 0; k < 3; ++k) {
        if (idx[t + k] < 0 || idx[t + k] >= count) return !(out_of_range = true);
        tri[k] = base + static_cast<int>(idx[t + k]);
      }
      mesh.triangles.push_back(tri);
    }
    return true;
  };
  if (prim.indices >= 0) {
    // Blocks hold whole triangles (kAccessorBlock is a multiple of 3).
    int comps = 0;
    if (!read_accessor_blocks(m, prim.indices, comps, err,
                              [&](size_t, const std::vector<double>& idx) { return comps == 1 && add(idx); }) ||
        comps != 1)
      return bad_data(path, "mesh " + std::to_string(mesh_index) + " indices: " + err);
  } else {
    std::vector<double> idx(count);
    for (int v = 0; v < count; ++v) idx[v] = v;
    add(idx);
  }
  if (out_of_range) return bad_data(path, "mesh " + std::to_string(mesh_index) + " index out of range");
  return Status::Ok();
}

// One triangle primitive's positions (placed by As), triangles and weights into out.
Status read_primitive(const std::string& path, const tinygltf::Model& m, const tinygltf::Node& node, const int pi,
                      const int position_accessor, const Mat4& As, const std::map<int, int>& skeleton_index_of_node,
                      Character& out) {
  const tinygltf::Skin& skin = m.skins[node.skin];
  const tinygltf::Mesh& mesh = m.meshes[node.mesh];
  const tinygltf::Primitive& prim = mesh.primitives[pi];
  const int base = out.mesh.vertex_count();
  int count = 0;
  if (Status s = read_positions(path, m, node.mesh, position_accessor, As, out.mesh, count); !s.ok()) return s;
  Mesh::Primitive mp{node.mesh, pi, base, count, mesh.name};
  if (Status s = read_triangles(path, m, node.mesh, prim, base, count, out.mesh); !s.ok()) return s;
  // Every JOINTS_n / WEIGHTS_n set, as the file holds them (settled later),
  // straight into the skin.
  out.skin.influences.resize(out.mesh.positions.size());
  if (std::string what = gltf_weights::read_influences(
          m, prim, skin, skeleton_index_of_node,
          std::span<std::vector<Influence>>(out.skin.influences.data() + base, static_cast<size_t>(count)));
      !what.empty())
    return bad_data(path, "mesh " + std::to_string(node.mesh) + " " + what);
  out.mesh.primitives.push_back(mp);
  return Status::Ok();
}

// The mesh's and skin's arrays reserved for every triangle primitive of the
// skinned nodes (accessor counts, as far as the buffers can hold them): each
// array allocated once, not grown by doubling through fresh pages (issue 47).
void reserve_primitives(const GltfSource& src, Character& out) {
  const tinygltf::Model& m = src.model;
  size_t vertices = 0, triangles = 0, bytes = 0;
  for (const tinygltf::Buffer& b : m.buffers) bytes += b.data.size();
  auto count_of = [&](const int a) { return valid_index(a, m.accessors) ? m.accessors[a].count : size_t{0}; };
  for (int n : src.skinned_nodes)
    for (const tinygltf::Primitive& prim : m.meshes[m.nodes[n].mesh].primitives) {
      const auto pos = prim.attributes.find("POSITION");
      if ((prim.mode != -1 && prim.mode != TINYGLTF_MODE_TRIANGLES) || pos == prim.attributes.end()) continue;
      vertices += count_of(pos->second);
      triangles += (prim.indices >= 0 ? count_of(prim.indices) : count_of(pos->second)) / 3;
    }
  // A vertex takes at least 3 bytes of positions, a triangle 3 of indices.
  if (vertices > kMaxVertices || vertices * 3 > bytes || triangles * 3 > bytes) return;
  out.mesh.positions.reserve(vertices);
  out.mesh.source_primitive.reserve(vertices);
  out.mesh.source_index.reserve(vertices);
  out.skin.influences.reserve(vertices);
  out.mesh.triangles.reserve(triangles);
}

}  // namespace

Status read_skinned_primitives(const std::string& path, const std::map<int, int>& skeleton_index_of_node,
                               GltfSource& src, Character& out) {
  const tinygltf::Model& m = src.model;
  reserve_primitives(src, out);
  for (int n : src.skinned_nodes) {
    const tinygltf::Node& node = m.nodes[n];
    const tinygltf::Mesh& mesh = m.meshes[node.mesh];
    const auto own = src.skin_mesh_to_world.find(node.skin);
    const Mat4& As = own == src.skin_mesh_to_world.end() ? src.mesh_to_world : own->second;
    for (int pi = 0; pi < static_cast<int>(mesh.primitives.size()); ++pi) {
      const tinygltf::Primitive& prim = mesh.primitives[pi];
      if (prim.mode != -1 && prim.mode != TINYGLTF_MODE_TRIANGLES) continue;
      auto pos_it = prim.attributes.find("POSITION");
      if (pos_it == prim.attributes.end()) continue;
      if (Status s = read_primitive(path, m, node, pi, pos_it->second, As, skeleton_index_of_node, out); !s.ok())
        return s;
      src.primitive_nodes.push_back(n);
    }
  }
  return Status::Ok();
}

}  // namespace rig
