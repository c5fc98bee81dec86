// The lowest of a set of skinned vertices in a pose, without skinning them
// all: floor tests (the whole body, a grounding sample, an arm's skin) ask it
// at every key, and most of a body is far above its lowest point.
//
// The vertices are grouped by dominant joint, each group split into
// spatial parts of at most 64 (a foot's skin is near the floor at every
// stance key: only its low parts are skinned), each part with a bind
// bounding sphere (c, r) and the joints that move it. Linear blend skinning
// puts a vertex at a convex combination of its joints' transforms of it, so
// its height is at least the least of h_j . c - |h_j.xyz| r over those
// joints (h_j: the y row of joint j's skinning matrix). A joint's whole
// skin is bounded first, and only a joint whose bound is low enough has
// its parts bounded; parts are searched in order of their bounds until one
// lies above the lowest vertex found: the answer is the one a scan of
// every vertex gives, bit for bit (the first item among equal heights).
#pragma once

#include <algorithm>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "rig/model/model.h"

namespace rig {

struct LowestSkinIndex {
  struct Group {
    std::vector<int> items;   // indices into the vertex list, ascending
    std::vector<int> joints;  // every joint influencing one of them
    Vec3 centre = Vec3::Zero();
    double radius = 0.0;
    // Weights not summing to 1 (a model built in memory) scale the bound by
    // their sum; a negative weight or a vertex without a dominant joint
    // leaves the group unbounded (searched every time).
    double sum_min = 1.0, sum_max = 1.0;
    bool unbounded = false;
  };
  // One dominant joint's parts, bounded as a whole by `bound` (a Group
  // without items: the bind sphere of all its parts' vertices, their joints):
  // a floor query bounds the joints first and opens only those whose bound
  // lies under its cap, instead of bounding every part at every key (most
  // of a body's parts sit under a joint far above the floor).
  struct Cluster {
    Group bound;
    int first = 0, end = 0;  // its parts: groups[first, end)
  };
  std::vector<int> vertices;  // the list indexed
  std::vector<Group> groups;  // the parts
  std::vector<Cluster> clusters;
};

// Indexes `vertices` (any order; items refer to positions in this list).
LowestSkinIndex index_lowest_skin(const Character& c, std::span<const int> vertices);

// The y row of the skinning matrix world * inverse_bind, bit for bit the
// row of the whole product (a quarter of its work).
Eigen::RowVector4d skinning_height(const Mat4& world, const Mat4& inverse_bind);

// The y row of each joint's skinning matrix (world * inverse bind) in `world`.
void skinning_heights(const Skeleton& sk, std::span<const Mat4> world, std::vector<Eigen::RowVector4d>& height);

// Vertex v's skinned height under rows `height`.
inline double skinned_height(const Character& c, int v, std::span<const Eigen::RowVector4d> height) {
  const Eigen::Vector4d p = c.mesh.positions[static_cast<size_t>(v)].homogeneous();
  double y = 0.0;
  for (const Influence& in : c.skin.influences[static_cast<size_t>(v)])
    y += in.weight * height[static_cast<size_t>(in.joint)].dot(p);
  return y;
}

// The least height any vertex of group g can have (a little less, so
// rounding never puts one below it); -infinity when unbounded.
double lowest_possible(const LowestSkinIndex::Group& g, std::span<const Eigen::RowVector4d> height);

struct LowestItem {
  double y = std::numeric_limits<double>::infinity();
  int item = -1;  // -1: no item kept
};

// The lowest item i for which keep(i) holds (the first among equal heights)
// and lies under `cap`, its height y_of(vertex): a caller that skins another
// way (its own summation order) passes its own. `height` gives the groups'
// bounds. Only the groups whose bound is at or under `cap` are searched,
// lowest bound first (the floor steps: above the floor nothing is lifted or
// deep); nothing under it gives item -1, +infinity. `order` is scratch space
// (reused across calls to avoid allocating).
template <class Keep, class HeightOf>
LowestItem lowest_skinned_below(const LowestSkinIndex& index, std::span<const Eigen::RowVector4d> height, double cap,
                                Keep&& keep, HeightOf&& y_of, std::vector<std::pair<double, int>>& order) {
  // The heap holds parts (id >= 0) and unopened clusters (id < 0: -1 - k);
  // a cluster of one part is that part. Any order of search gives the same
  // answer (each bound lies under every height it bounds).
  const auto later = [](const std::pair<double, int>& a, const std::pair<double, int>& b) { return a > b; };
  order.clear();
  for (size_t k = 0; k < index.clusters.size(); ++k) {
    const LowestSkinIndex::Cluster& cl = index.clusters[k];
    const bool one_part = cl.end - cl.first == 1;
    const double bound = lowest_possible(one_part ? index.groups[static_cast<size_t>(cl.first)] : cl.bound, height);
    // NaN bounds too: lowest_skinned searches them (a NaN never stops it).
    if (!(bound > cap)) order.emplace_back(bound, one_part ? cl.first : -1 - static_cast<int>(k));
  }
  std::make_heap(order.begin(), order.end(), later);
  LowestItem out;
  while (!order.empty()) {
    std::pop_heap(order.begin(), order.end(), later);
    const auto [bound, id] = order.back();
    order.pop_back();
    if (bound > out.y) break;
    if (id < 0) {
      const LowestSkinIndex::Cluster& cl = index.clusters[static_cast<size_t>(-1 - id)];
      for (int g = cl.first; g < cl.end; ++g) {
        const double part = lowest_possible(index.groups[static_cast<size_t>(g)], height);
        if (part > cap || part > out.y) continue;
        order.emplace_back(part, g);
        std::push_heap(order.begin(), order.end(), later);
      }
      continue;
    }
    for (int i : index.groups[static_cast<size_t>(id)].items) {
      if (!keep(i)) continue;
      const double y = y_of(index.vertices[static_cast<size_t>(i)]);
      if (y < out.y || (y == out.y && i < out.item)) out.y = y, out.item = i;
    }
  }
  if (!(out.y < cap)) return LowestItem{};
  return out;
}

// The lowest kept item at any height: lowest_skinned_below with no cap.
template <class Keep, class HeightOf>
LowestItem lowest_skinned(const LowestSkinIndex& index, std::span<const Eigen::RowVector4d> height, Keep&& keep,
                          HeightOf&& y_of, std::vector<std::pair<double, int>>& order) {
  return lowest_skinned_below(index, height, std::numeric_limits<double>::infinity(), keep, y_of, order);
}

// The same with skinned_height under `height`.
template <class Keep>
LowestItem lowest_skinned(const Character& c, const LowestSkinIndex& index, std::span<const Eigen::RowVector4d> height,
                          Keep&& keep, std::vector<std::pair<double, int>>& order) {
  return lowest_skinned(index, height, keep, [&](int v) { return skinned_height(c, v, height); }, order);
}

}  // namespace rig
