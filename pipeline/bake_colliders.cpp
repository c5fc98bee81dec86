// The bake's colliders, margin and penetration measure (see bake_colliders.h).
#include "pipeline/bake_colliders.h"

#include <algorithm>

#include "measure/tail_penetration.h"
#include "pipeline/leg_colliders.h"
#include "rig/anatomy/leg_capsules.h"
#include "rig/anatomy/skin_queries.h"

namespace pipeline {

double tail_root_radius(const rig::Character& c, const solver::ChainDesc& desc) {
  const rig::Skeleton& sk = c.skeleton;
  const size_t nv = std::min(c.mesh.positions.size(), c.skin.influences.size());
  const int n = desc.size();
  // The first link with enough skin: a detect-grown chain's Tail_1 always
  // has it; a rigger's first tail bone may be a stub inside the haunch.
  for (int i = 0; i < std::max(1, n / 2); ++i) {
    const int joint = desc.links[static_cast<size_t>(i)].joint;
    const int next = i + 1 < n ? desc.links[static_cast<size_t>(i) + 1].joint : desc.tail_end;
    if (next < 0) break;
    const rig::Vec3 a = sk.bind_world[static_cast<size_t>(joint)].block<3, 1>(0, 3);
    const rig::Vec3 ab = sk.bind_world[static_cast<size_t>(next)].block<3, 1>(0, 3) - a;
    const double len2 = ab.squaredNorm();
    if (!(len2 > 0)) continue;
    std::vector<double> d;
    for (size_t v = 0; v < nv; ++v) {
      if (rig::dominant_joint(c.skin.influences[v]) != joint) continue;
      const rig::Vec3 q = c.mesh.positions[v] - a;
      const double t = std::clamp(q.dot(ab) / len2, 0.0, 1.0);
      d.push_back((q - t * ab).norm());
    }
    if (static_cast<int>(d.size()) < rig::kMinCapsuleVertices) continue;
    const auto mid = d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2);
    std::nth_element(d.begin(), mid, d.end());
    return *mid;
  }
  return 0.0;
}

std::vector<char> chain_joints(const rig::Skeleton& sk, const solver::ChainDesc& desc) {
  std::vector<char> tail(static_cast<size_t>(sk.size()), 0);
  for (const auto& l : desc.links) tail[static_cast<size_t>(l.joint)] = 1;
  for (int j = 0; j < sk.size(); ++j)  // parents first
    if (sk.parents[static_cast<size_t>(j)] >= 0 && tail[static_cast<size_t>(sk.parents[static_cast<size_t>(j)])])
      tail[static_cast<size_t>(j)] = 1;
  return tail;
}

BakeColliders bake_colliders(const rig::Character& c, const solver::ChainDesc& desc, double height_units,
                             double given_margin_m) {
  const std::vector<char> tail_joints = chain_joints(c.skeleton, desc);
  BakeColliders out;
  const double mpu = c.meters_per_unit > 0 ? c.meters_per_unit : 1.0;
  if (!c.colliders.empty()) {
    out.capsules = c.colliders;
    out.source = "stored";
  } else {
    out.capsules = fit_leg_colliders(c, tail_skin(c, {}, tail_joints));
    out.source = out.capsules.empty() ? "none" : "fitted";
  }
  if (given_margin_m >= 0) {
    out.margin_m = given_margin_m;
    out.margin_source = "given";
  } else if (const double r = tail_root_radius(c, desc); r > 0 && r <= kMaxMarginOfH * height_units) {
    out.margin_m = r * mpu;
    out.margin_source = "tail root radius";
  } else if (r > 0) {
    out.margin_m = kMaxMarginOfH * height_units * mpu;
    out.margin_source = "2.8 % of H (the tail root's skin measures more: rump skin)";
  } else {
    out.margin_m = kMarginOfHWithoutSkin * height_units * mpu;
    out.margin_source = "2.8 % of H (no tail root skin to measure)";
  }
  const size_t nv = std::min(c.mesh.positions.size(), c.skin.influences.size());
  for (size_t v = 0; v < nv; ++v) {
    const int j = rig::dominant_joint(c.skin.influences[v]);
    if (j >= 0 && static_cast<size_t>(j) < tail_joints.size() && tail_joints[static_cast<size_t>(j)])
      out.tail_vertices.push_back(static_cast<int>(v));
  }
  out.counted = measure::outside_legs_at_bind(c, out.capsules, out.tail_vertices);
  return out;
}

double tail_depth(const rig::Character& c, const BakeColliders& k, std::span<const rig::Mat4> world) {
  if (k.capsules.empty() || k.tail_vertices.empty()) return 0.0;
  // Only the tail's vertices are skinned (not a 1 M-vertex body per key),
  // packed: vertex i of the list is posed[i] (`order` = 0..n-1).
  std::vector<rig::Vec3> posed(k.tail_vertices.size(), rig::Vec3::Zero());
  std::vector<int> order(k.tail_vertices.size());
  const rig::Skeleton& sk = c.skeleton;
  for (size_t i = 0; i < k.tail_vertices.size(); ++i) {
    order[i] = static_cast<int>(i);
    const size_t v = static_cast<size_t>(k.tail_vertices[i]);
    for (const rig::Influence& in : c.skin.influences[v])
      posed[i] += in.weight * ((world[static_cast<size_t>(in.joint)] * sk.inverse_bind[static_cast<size_t>(in.joint)]) *
                               c.mesh.positions[v].homogeneous()).head<3>();
  }
  return measure::tail_in_legs_depth(c, k.capsules, order, k.counted, world, posed);
}

}  // namespace pipeline
