// A glTF file's skin weights as held, settled, and checked (see gltf_weights.h).
#include "rig/io/gltf/gltf_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rig/io/file_weights.h"

namespace rig {
namespace gltf_weights {

std::string read_influences(const tinygltf::Model& m, const tinygltf::Primitive& prim, const tinygltf::Skin& skin,
                            const int count, const std::map<int, int>& skeleton_index_of_node,
                            std::vector<std::vector<Influence>>& out) {
  out.assign(static_cast<size_t>(count), {});
  // The skin's joint slots resolved once (-1: a node that is no joint), not
  // a map lookup per influence (issue 47: 2 % of a 1 M-vertex fix).
  std::vector<int> joint_of_slot(skin.joints.size(), -1);
  for (size_t local = 0; local < skin.joints.size(); ++local)
    if (const auto joint = skeleton_index_of_node.find(skin.joints[local]); joint != skeleton_index_of_node.end())
      joint_of_slot[local] = joint->second;
  std::string err;
  for (int set = 0;; ++set) {
    auto ji = prim.attributes.find("JOINTS_" + std::to_string(set));
    auto wi = prim.attributes.find("WEIGHTS_" + std::to_string(set));
    if (ji == prim.attributes.end() || wi == prim.attributes.end()) break;
    std::vector<double> jv, wv;
    int jc = 0, wc = 0;
    if (!read_accessor(m, ji->second, jv, jc, err) || !read_accessor(m, wi->second, wv, wc, err) || jc != 4 ||
        wc != 4 || jv.size() != static_cast<size_t>(count) * 4 || wv.size() != jv.size())
      return "skin attributes are malformed";
    for (int v = 0; v < count; ++v) {
      // One allocation per vertex, not a doubling series (issue 47).
      size_t nonzero = 0;
      for (int k = 0; k < 4; ++k) nonzero += wv[4 * v + k] > 0 ? 1 : 0;
      out[v].reserve(out[v].size() + nonzero);
      for (int k = 0; k < 4; ++k) {
        const double w = wv[4 * v + k];
        if (!(w > 0)) continue;
        const size_t local = static_cast<size_t>(jv[4 * v + k]);
        if (local >= joint_of_slot.size() || joint_of_slot[local] < 0) return "joint index out of range";
        out[v].push_back({joint_of_slot[local], w});
      }
    }
  }
  return {};
}

void settle(std::vector<Influence>& influences) {
  std::sort(influences.begin(), influences.end(),
            [](const Influence& a, const Influence& b) { return a.joint < b.joint; });
  size_t kept = 0;
  for (size_t i = 0; i < influences.size(); ++i) {
    if (kept > 0 && influences[kept - 1].joint == influences[i].joint) influences[kept - 1].weight += influences[i].weight;
    else influences[kept++] = influences[i];
  }
  influences.resize(kept);
  double sum = 0;
  for (const Influence& in : influences) sum += in.weight;
  if (sum > 0)
    for (Influence& in : influences) in.weight /= sum;
}

bool names_a_joint_twice(std::span<const Influence> influences) {
  for (size_t i = 0; i < influences.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (influences[k].joint == influences[i].joint) return true;
  return false;
}

double sum_error(std::span<const Influence> influences) {
  // The validator adds component 0 of every set, then component 1, ..., in
  // float32 (gltf-validator's weights check).
  const size_t n = influences.size();
  const size_t sets = (n + 3) / 4;
  float sum = 0.0f;
  for (size_t k = 0; k < 4; ++k)
    for (size_t s = 0; s < sets; ++s)
      if (s * 4 + k < n) sum += static_cast<float>(influences[s * 4 + k].weight);
  return std::fabs(static_cast<double>(sum) - 1.0);
}

bool valid_as_written(std::span<const Influence> influences) {
  if (influences.empty() || names_a_joint_twice(influences)) return false;
  return sum_error(influences) <= 2e-7 * static_cast<double>(influences.size());
}

bool settling_changes_floats(std::span<const Influence> as_read, std::span<const Influence> settled) {
  if (as_read.size() != settled.size()) return true;  // joints merged (or none)
  for (const Influence& s : settled) {
    const auto it = std::find_if(as_read.begin(), as_read.end(), [&](const Influence& r) { return r.joint == s.joint; });
    if (it == as_read.end() || static_cast<float>(it->weight) != static_cast<float>(s.weight)) return true;
  }
  return false;
}

std::vector<std::vector<Influence>> file_influences(const GltfSource& src, const Mesh& mesh) {
  const tinygltf::Model& m = src.model;
  std::map<int, int> skeleton_index_of_node;
  for (size_t j = 0; j < src.joint_nodes.size(); ++j) skeleton_index_of_node[src.joint_nodes[j]] = static_cast<int>(j);
  std::vector<std::vector<Influence>> out(static_cast<size_t>(mesh.vertex_count()));
  if (src.primitive_nodes.size() != mesh.primitives.size()) return {};
  std::vector<std::vector<Influence>> one;
  for (size_t k = 0; k < mesh.primitives.size(); ++k) {
    const Mesh::Primitive& p = mesh.primitives[k];
    const int node = src.primitive_nodes[k];
    if (node < 0 || node >= static_cast<int>(m.nodes.size())) return {};
    const int skin = m.nodes[node].skin;
    if (skin < 0 || skin >= static_cast<int>(m.skins.size()) || p.mesh < 0 ||
        p.mesh >= static_cast<int>(m.meshes.size()) || p.primitive < 0 ||
        p.primitive >= static_cast<int>(m.meshes[p.mesh].primitives.size()))
      return {};
    if (!read_influences(m, m.meshes[p.mesh].primitives[p.primitive], m.skins[skin], p.vertex_count,
                         skeleton_index_of_node, one)
             .empty())
      return {};
    for (int v = 0; v < p.vertex_count; ++v) out[static_cast<size_t>(p.first_vertex + v)] = std::move(one[v]);
  }
  return out;
}

namespace {

bool same(const std::vector<Influence>& a, const std::vector<Influence>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].joint != b[i].joint || a[i].weight != b[i].weight) return false;
  return true;
}

}  // namespace

std::vector<std::vector<Influence>> to_write_as_read(const GltfSource& src, const Skin& skin) {
  if (src.settled.empty()) return {};
  std::vector<std::vector<Influence>> out(skin.influences.size());
  for (const GltfSource::SettledVertex& sv : src.settled) {
    if (sv.as_read.empty() || sv.vertex < 0 || static_cast<size_t>(sv.vertex) >= out.size()) continue;
    std::vector<Influence> settled = sv.as_read;
    settle(settled);
    if (same(settled, skin.influences[static_cast<size_t>(sv.vertex)]) && valid_as_written(sv.as_read))
      out[static_cast<size_t>(sv.vertex)] = sv.as_read;
  }
  return out;
}

}  // namespace gltf_weights

WeightWriteChanges weights_changed_on_write(const Character& c) {
  WeightWriteChanges out;
  if (!c.gltf) return out;
  for (const GltfSource::SettledVertex& sv : c.gltf->settled) {
    if (sv.vertex < 0 || static_cast<size_t>(sv.vertex) >= c.skin.influences.size()) continue;
    const std::vector<Influence>& now = c.skin.influences[static_cast<size_t>(sv.vertex)];
    if (sv.as_read.empty()) {
      // The reader gave a weightless vertex its nearest joint (fix's own
      // rewrites are fix's to report).
      out.given_a_joint += now.size() == 1 && now[0].weight == 1.0;
      continue;
    }
    std::vector<Influence> settled = sv.as_read;
    gltf_weights::settle(settled);
    if (!gltf_weights::same(settled, now) || gltf_weights::valid_as_written(sv.as_read)) continue;
    if (gltf_weights::names_a_joint_twice(sv.as_read)) ++out.merged;
    else ++out.renormalised;
    out.worst_sum_error = std::max(out.worst_sum_error, gltf_weights::sum_error(sv.as_read));
  }
  return out;
}

std::string weight_changes_text(const WeightWriteChanges& changes) {
  std::string out;
  auto add = [&out](const int n, const std::string& what) {
    if (n == 0) return;
    out += (out.empty() ? "" : ", ") + std::to_string(n) + (n == 1 ? " vertex " : " vertices ") + what;
  };
  char sum[96];
  std::snprintf(sum, sizeof sum, " (the file's sums were off by up to %.3g; the validator requires 1)",
                changes.worst_sum_error);
  add(changes.renormalised, "renormalised to sum 1" + std::string(changes.merged ? "" : sum));
  add(changes.merged, "naming a joint twice merged into one influence and renormalised" +
                          std::string(changes.merged ? sum : ""));
  add(changes.given_a_joint, "without any weight given their nearest joint");
  return out;
}

std::vector<std::vector<Influence>> weights_in_file(const Character& c) {
  return c.gltf ? gltf_weights::file_influences(*c.gltf, c.mesh) : std::vector<std::vector<Influence>>{};
}

}  // namespace rig
