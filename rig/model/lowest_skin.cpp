// The lowest of a set of skinned vertices (see lowest_skin.h).
#include "rig/model/lowest_skin.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Geometry>

namespace rig {

namespace {

// The joint with the largest weight (the first among equals); -1 without one.
int dominant(const std::vector<Influence>& in) {
  int best = -1;
  double w = -std::numeric_limits<double>::infinity();
  for (const Influence& x : in)
    if (x.weight > w) w = x.weight, best = x.joint;
  return best;
}

// A dominant joint's skin is split into parts of at most this many items:
// a foot's skin, near the floor at every stance key, would otherwise be
// skinned whole at each query; a part's bound excludes most of it.
constexpr size_t kLeafItems = 64;

// A vertex of a group being split: its bind position (copied: the split
// reads it at every level) and its position in the vertex list.
struct Point {
  Vec3 at;
  int item;
};

// Splits points[lo, hi) at the median of their bind box's longest side
// until each part holds at most kLeafItems, into `parts` (each ascending).
// Any split gives the same answers (each part is bounded on its own
// vertices).
void split_points(std::vector<Point>& points, size_t lo, size_t hi, std::vector<std::vector<int>>& parts) {
  const auto at = [&](size_t k) { return points.begin() + static_cast<std::ptrdiff_t>(k); };
  if (hi - lo <= kLeafItems) {
    parts.emplace_back();
    for (size_t k = lo; k < hi; ++k) parts.back().push_back(points[k].item);
    std::sort(parts.back().begin(), parts.back().end());
    return;
  }
  Eigen::AlignedBox3d box;
  for (size_t k = lo; k < hi; ++k) box.extend(points[k].at);
  int axis = 0;
  box.sizes().maxCoeff(&axis);
  const size_t mid = lo + (hi - lo) / 2;
  std::nth_element(at(lo), at(mid), at(hi), [axis](const Point& a, const Point& b) {
    return a.at[axis] < b.at[axis] || (a.at[axis] == b.at[axis] && a.item < b.item);
  });
  split_points(points, lo, mid, parts);
  split_points(points, mid, hi, parts);
}

// `items` (positions in `vertices`) in spatial parts; a non-finite bind
// position leaves them whole (no ordering along an axis).
void split_items(const Character& c, std::span<const int> vertices, std::vector<int>& items,
                 std::vector<std::vector<int>>& parts) {
  std::vector<Point> points(items.size());
  for (size_t k = 0; k < items.size(); ++k) {
    points[k] = {c.mesh.positions[static_cast<size_t>(vertices[static_cast<size_t>(items[k])])], items[k]};
    if (!points[k].at.allFinite()) {
      parts.push_back(std::move(items));
      return;
    }
  }
  split_points(points, 0, points.size(), parts);
}

// Bounds g (bind sphere, joints, weight sums) over `items` (positions in
// `vertices`): `seen` is all zero on entry and on return.
void bound_group(const Character& c, std::span<const int> vertices, std::span<const int> items,
                 LowestSkinIndex::Group& g, std::vector<char>& seen) {
  const int nj = c.skeleton.size();
  Eigen::AlignedBox3d box;
  g.sum_min = std::numeric_limits<double>::infinity();
  g.sum_max = -g.sum_min;
  for (int i : items) {
    const int v = vertices[static_cast<size_t>(i)];
    box.extend(c.mesh.positions[static_cast<size_t>(v)]);
    double sum = 0.0;
    for (const Influence& in : c.skin.influences[static_cast<size_t>(v)]) {
      sum += in.weight;
      const bool valid = in.joint >= 0 && in.joint < nj;
      g.unbounded |= !(in.weight >= 0.0) || !valid;
      if (valid && !seen[static_cast<size_t>(in.joint)]) seen[static_cast<size_t>(in.joint)] = 1, g.joints.push_back(in.joint);
    }
    g.sum_min = std::min(g.sum_min, sum);
    g.sum_max = std::max(g.sum_max, sum);
  }
  for (int j : g.joints) seen[static_cast<size_t>(j)] = 0;
  g.centre = box.center();
  for (int i : items)
    g.radius = std::max(g.radius, (c.mesh.positions[static_cast<size_t>(vertices[static_cast<size_t>(i)])] - g.centre).norm());
}

}  // namespace

LowestSkinIndex index_lowest_skin(const Character& c, std::span<const int> vertices) {
  LowestSkinIndex out;
  out.vertices.assign(vertices.begin(), vertices.end());
  const int nj = c.skeleton.size();
  std::vector<int> group_of(static_cast<size_t>(nj), -1);
  int unbound = -1;
  std::vector<LowestSkinIndex::Group> whole;
  for (size_t i = 0; i < vertices.size(); ++i) {
    const int d = dominant(c.skin.influences[static_cast<size_t>(vertices[i])]);
    int& g = d >= 0 && d < nj ? group_of[static_cast<size_t>(d)] : unbound;
    if (g < 0) {
      g = static_cast<int>(whole.size());
      whole.emplace_back();
    }
    whole[static_cast<size_t>(g)].items.push_back(static_cast<int>(i));
  }
  if (unbound >= 0) whole[static_cast<size_t>(unbound)].unbounded = true;
  // Each joint's skin bounded whole (its cluster), then in spatial parts
  // (the unbounded group stays whole: it is searched every time anyway).
  std::vector<char> seen(static_cast<size_t>(nj), 0);
  std::vector<std::vector<int>> parts;
  for (LowestSkinIndex::Group& g : whole) {
    LowestSkinIndex::Cluster cluster;
    cluster.bound.unbounded = g.unbounded;
    bound_group(c, vertices, g.items, cluster.bound, seen);
    parts.clear();
    if (g.unbounded) parts.push_back(std::move(g.items));
    else split_items(c, vertices, g.items, parts);
    cluster.first = static_cast<int>(out.groups.size());
    for (std::vector<int>& items : parts) {
      LowestSkinIndex::Group& part = out.groups.emplace_back();
      part.items = std::move(items);
      part.unbounded = g.unbounded;
      bound_group(c, vertices, part.items, part, seen);
    }
    cluster.end = static_cast<int>(out.groups.size());
    out.clusters.push_back(std::move(cluster));
  }
  return out;
}

Eigen::RowVector4d skinning_height(const Mat4& w, const Mat4& ib) {
  // Row 1 of w * ib alone, summed in the order Eigen's 4 x 4 product sums
  // it (k = 0..3 from the left): the same bits as taking the row of the
  // whole product (every floor query makes these at every key). Eigen's own
  // row * matrix sums in another order.
  Eigen::RowVector4d h;
  for (int c = 0; c < 4; ++c)
    h[c] = ((w(1, 0) * ib(0, c) + w(1, 1) * ib(1, c)) + w(1, 2) * ib(2, c)) + w(1, 3) * ib(3, c);
  return h;
}

void skinning_heights(const Skeleton& sk, std::span<const Mat4> world, std::vector<Eigen::RowVector4d>& height) {
  height.resize(world.size());
  for (size_t j = 0; j < world.size(); ++j) height[j] = skinning_height(world[j], sk.inverse_bind[j]);
}

double lowest_possible(const LowestSkinIndex::Group& g, std::span<const Eigen::RowVector4d> height) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (g.unbounded) return -kInf;
  const Eigen::Vector4d c = g.centre.homogeneous();
  double low = kInf;
  for (int j : g.joints) {
    const Eigen::RowVector4d& h = height[static_cast<size_t>(j)];
    const double centre = h.dot(c), spread = h.head<3>().norm() * g.radius;
    low = std::min(low, centre - spread - 1e-9 * (std::abs(centre) + spread));
  }
  const double bound = std::min(g.sum_min * low, g.sum_max * low);
  return std::isnan(bound) ? -kInf : bound;  // a non-finite pose: searched, as a scan would
}

}  // namespace rig
