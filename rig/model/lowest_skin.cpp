// The lowest of a set of skinned vertices (see lowest_skin.h).
#include "rig/model/lowest_skin.h"

#include <cmath>

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

}  // namespace

LowestSkinIndex index_lowest_skin(const Character& c, std::span<const int> vertices) {
  LowestSkinIndex out;
  out.vertices.assign(vertices.begin(), vertices.end());
  const int nj = c.skeleton.size();
  std::vector<int> group_of(static_cast<size_t>(nj), -1);
  int unbound = -1;
  for (size_t i = 0; i < vertices.size(); ++i) {
    const int d = dominant(c.skin.influences[static_cast<size_t>(vertices[i])]);
    int& g = d >= 0 && d < nj ? group_of[static_cast<size_t>(d)] : unbound;
    if (g < 0) {
      g = static_cast<int>(out.groups.size());
      out.groups.emplace_back();
    }
    out.groups[static_cast<size_t>(g)].items.push_back(static_cast<int>(i));
  }
  if (unbound >= 0) out.groups[static_cast<size_t>(unbound)].unbounded = true;
  std::vector<char> seen(static_cast<size_t>(nj), 0);
  for (LowestSkinIndex::Group& g : out.groups) {
    Eigen::AlignedBox3d box;
    g.sum_min = std::numeric_limits<double>::infinity();
    g.sum_max = -g.sum_min;
    for (int i : g.items) {
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
    for (int i : g.items)
      g.radius = std::max(g.radius, (c.mesh.positions[static_cast<size_t>(vertices[static_cast<size_t>(i)])] - g.centre).norm());
  }
  return out;
}

void skinning_heights(const Skeleton& sk, std::span<const Mat4> world, std::vector<Eigen::RowVector4d>& height) {
  height.resize(world.size());
  for (size_t j = 0; j < world.size(); ++j) height[j] = (world[j] * sk.inverse_bind[j]).row(1);
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
