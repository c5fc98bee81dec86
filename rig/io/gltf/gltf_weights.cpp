// A glTF file's skin weights as held, settled, and checked (see gltf_weights.h).
#include "rig/io/gltf/gltf_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rig/io/file_weights.h"

namespace rig {
namespace gltf_weights {

namespace {

// Vertices [first, first + jv.size() / 4) of one JOINTS_n/WEIGHTS_n set
// appended to `out`; false at a positive weight on a slot that is no joint.
bool add_set(const std::vector<double>& jv, const std::vector<double>& wv, const size_t first,
             const std::vector<int>& joint_of_slot, std::span<std::vector<Influence>> out) {
  const size_t n = jv.size() / 4;
  for (size_t i = 0; i < n; ++i) {
    // One allocation per vertex, not a doubling series (issue 47).
    std::vector<Influence>& to = out[first + i];
    size_t nonzero = 0;
    for (int k = 0; k < 4; ++k) nonzero += wv[4 * i + k] > 0 ? 1 : 0;
    to.reserve(to.size() + nonzero);
    for (int k = 0; k < 4; ++k) {
      const double w = wv[4 * i + k];
      if (!(w > 0)) continue;
      const size_t local = static_cast<size_t>(jv[4 * i + k]);
      if (local >= joint_of_slot.size() || joint_of_slot[local] < 0) return false;
      to.push_back({joint_of_slot[local], w});
    }
  }
  return true;
}

// One set read whole (an accessor without a view, or sparse).
std::string read_set_whole(const tinygltf::Model& m, const int joints, const int weights,
                           const std::vector<int>& joint_of_slot, std::span<std::vector<Influence>> out) {
  std::vector<double> jv, wv;
  int jc = 0, wc = 0;
  std::string err;
  if (!read_accessor(m, joints, jv, jc, err) || !read_accessor(m, weights, wv, wc, err) || jc != 4 || wc != 4 ||
      jv.size() != out.size() * 4 || wv.size() != jv.size())
    return "skin attributes are malformed";
  return add_set(jv, wv, 0, joint_of_slot, out) ? "" : "joint index out of range";
}

// One set read in ranges of kAccessorBlock vertices (not two accessors'
// worth of doubles at once): the same outcome as read_set_whole, a
// malformed accessor anywhere before a joint out of range.
std::string read_set_in_ranges(const tinygltf::Model& m, const int joints, const int weights,
                               const std::vector<int>& joint_of_slot, std::span<std::vector<Influence>> out) {
  const size_t count = out.size();
  if (m.accessors[joints].count != count || m.accessors[weights].count != count) return "skin attributes are malformed";
  std::vector<double> jv, wv;
  int jc = 0, wc = 0;
  std::string err;
  bool in_range = true;
  size_t first = 0;
  do {
    if (!read_accessor_range(m, joints, first, kAccessorBlock, jv, jc, err) ||
        !read_accessor_range(m, weights, first, kAccessorBlock, wv, wc, err) || jc != 4 || wc != 4)
      return "skin attributes are malformed";
    if (in_range) in_range = add_set(jv, wv, first, joint_of_slot, out);
    first += kAccessorBlock;
  } while (first < count);
  return in_range ? "" : "joint index out of range";
}

}  // namespace

std::string read_influences(const tinygltf::Model& m, const tinygltf::Primitive& prim, const tinygltf::Skin& skin,
                            const std::map<int, int>& skeleton_index_of_node, std::span<std::vector<Influence>> out) {
  for (std::vector<Influence>& v : out) v.clear();
  // The skin's joint slots resolved once (-1: a node that is no joint), not
  // a map lookup per influence (issue 47: 2 % of a 1 M-vertex fix).
  std::vector<int> joint_of_slot(skin.joints.size(), -1);
  for (size_t local = 0; local < skin.joints.size(); ++local)
    if (const auto joint = skeleton_index_of_node.find(skin.joints[local]); joint != skeleton_index_of_node.end())
      joint_of_slot[local] = joint->second;
  for (int set = 0;; ++set) {
    auto ji = prim.attributes.find("JOINTS_" + std::to_string(set));
    auto wi = prim.attributes.find("WEIGHTS_" + std::to_string(set));
    if (ji == prim.attributes.end() || wi == prim.attributes.end()) break;
    const std::string what = reads_in_ranges(m, ji->second) && reads_in_ranges(m, wi->second)
                                 ? read_set_in_ranges(m, ji->second, wi->second, joint_of_slot, out)
                                 : read_set_whole(m, ji->second, wi->second, joint_of_slot, out);
    if (!what.empty()) return what;
  }
  return {};
}

void settle(std::vector<Influence>& influences) {
  auto by_joint = [](const Influence& a, const Influence& b) { return a.joint < b.joint; };
  if (influences.size() <= 16) {
    // What std::sort does with 16 elements or fewer (a stable insertion
    // sort, so equal joints merge in the same order), without its calls
    // (issue 47: a million vertices of four influences).
    for (size_t i = 1; i < influences.size(); ++i)
      for (size_t k = i; k > 0 && by_joint(influences[k], influences[k - 1]); --k)
        std::swap(influences[k], influences[k - 1]);
  } else {
    std::sort(influences.begin(), influences.end(), by_joint);
  }
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
  for (size_t k = 0; k < mesh.primitives.size(); ++k) {
    const Mesh::Primitive& p = mesh.primitives[k];
    const int node = src.primitive_nodes[k];
    if (node < 0 || node >= static_cast<int>(m.nodes.size())) return {};
    const int skin = m.nodes[node].skin;
    if (skin < 0 || skin >= static_cast<int>(m.skins.size()) || p.mesh < 0 ||
        p.mesh >= static_cast<int>(m.meshes.size()) || p.primitive < 0 ||
        p.primitive >= static_cast<int>(m.meshes[p.mesh].primitives.size()))
      return {};
    if (p.first_vertex < 0 || p.vertex_count < 0 || static_cast<size_t>(p.first_vertex) + p.vertex_count > out.size())
      return {};
    const std::span<std::vector<Influence>> to(out.data() + p.first_vertex, static_cast<size_t>(p.vertex_count));
    if (!read_influences(m, m.meshes[p.mesh].primitives[p.primitive], m.skins[skin], skeleton_index_of_node, to)
             .empty())
      return {};
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
