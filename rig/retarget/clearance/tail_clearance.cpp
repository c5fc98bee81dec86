#include "rig/retarget/clearance/tail_clearance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "rig/anatomy/facing.h"
#include "rig/anatomy/skin_queries.h"  // dominant_joint, tail_joint_mask
#include "rig/anatomy/roles.h"
#include "rig/model/lowest_skin.h"

namespace rig {

namespace {

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }

// A tail within this of vertical turns (in part) about the body's lateral
// axis rather than across its own line: all of it at vertical, none at the
// cone's edge, so the axis turns smoothly as the tail rises.
constexpr double kSteepTailDeg = 15.0;

}  // namespace

std::vector<TailSkin> tail_skins(const Character& c) {
  const Skeleton& sk = c.skeleton;
  const int n = sk.size();
  const std::vector<bool> tail = tail_joint_mask(sk);
  std::vector<int> tail_of(static_cast<size_t>(n), -1);  // parents come first (topological order)
  std::vector<TailSkin> tails;
  for (int j = 0; j < n; ++j) {
    if (!tail[j]) continue;
    const int p = sk.parents[j];
    if (p >= 0 && tail[p]) {
      tail_of[j] = tail_of[p];
    } else {
      tail_of[j] = static_cast<int>(tails.size());
      tails.push_back(TailSkin{j, -1, {}, 0.0});
    }
  }
  for (int j = 0; j < n; ++j) {
    if (tail_of[j] < 0) continue;
    TailSkin& t = tails[tail_of[j]];
    const double d = (position(sk.bind_world[j]) - position(sk.bind_world[t.root])).norm();
    if (j != t.root && (t.tip < 0 || d > (position(sk.bind_world[t.tip]) - position(sk.bind_world[t.root])).norm()))
      t.tip = j;
  }
  if (c.has_skin()) {
    const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
    for (int v = 0; v < nv; ++v) {
      const int d = dominant_joint(c.skin.influences[v]);
      if (d >= 0 && d < n && tail_of[d] >= 0) tails[tail_of[d]].vertices.push_back(v);
    }
  }
  // Turning the root must move the tail alone: a root that is the
  // skeleton's own, or a "tail" holding body joints, is left out.
  auto moves_body = [&](const TailSkin& t) {
    if (sk.parents[t.root] < 0) return true;
    for (int j = 0; j < n; ++j) {
      if (j >= static_cast<int>(sk.roles.size()) || sk.roles[j].part == BodyPart::kNone) continue;
      for (int x = j, steps = 0; x >= 0 && x < n && steps <= n; x = sk.parents[x], ++steps)  // bounded on bad data
        if (x == t.root) return true;
    }
    return false;
  };
  std::erase_if(tails, [&](const TailSkin& t) { return t.tip < 0 || t.vertices.empty() || moves_body(t); });
  bool sided = false;  // without sided roles no facing is known: no backward direction
  const Vec3 back_bind = -facing_from_roles(sk, &sided).forward();
  for (TailSkin& t : tails) {
    const int p = sk.parents[t.root];
    if (sided && p >= 0 && p < n) t.back_in_parent = sk.bind_world[p].block<3, 3>(0, 0).inverse() * back_bind;
    if (!t.back_in_parent.allFinite()) t.back_in_parent = Vec3::Zero();
  }
  // The lowest bind point as lowest_y skins it (bind_world x inverse_bind
  // is the identity up to rounding, so this is the weighted mesh y).
  std::vector<Eigen::RowVector4d> height;
  skinning_heights(sk, sk.bind_world, height);
  for (TailSkin& t : tails) {
    double low = std::numeric_limits<double>::infinity();
    for (int v : t.vertices) {
      double y = 0.0;
      for (const Influence& in : c.skin.influences[v])
        if (in.joint >= 0 && in.joint < n) y += in.weight * height[in.joint].dot(c.mesh.positions[v].homogeneous());
      low = std::min(low, y);
    }
    t.bind_lowest = low;
  }
  return tails;
}

ArmClearanceResult keep_tails_above_floor(const Character& c, std::span<const TailSkin> tails, const Clip& clip,
                                          std::span<const double> times, const ArmClearanceOptions& options) {
  ArmClearanceResult res;
  res.clip = clip;
  const int n = c.skeleton.size();
  // One tail at a time, each on its own floor; tails do not hang from each
  // other (a root's parent is no tail joint), so the order does not matter.
  for (const TailSkin& t : tails) {
    if (t.root < 0 || t.root >= n || t.tip < 0 || t.tip >= n) {  // keeps one entry per tail
      res.angle.emplace_back(times.size(), 0.0);
      res.clearance.emplace_back(times.size(), 0.0);
      continue;
    }
    ArmClearanceOptions o = options;
    if (std::isfinite(t.bind_lowest)) o.floor_y = std::min(o.floor_y, t.bind_lowest);
    // Across the tail, horizontally: turning about it lifts the tail.
    const int parent = c.skeleton.parents[t.root];
    const double steep = std::sin(kSteepTailDeg * std::numbers::pi / 180.0);
    const TurnAxis across = [&](size_t, std::span<const Mat4> world) -> Vec3 {
      const Vec3 line = position(world[t.tip]) - position(world[t.root]);
      Vec3 along(line.x(), 0.0, line.z());
      const double flat = line.norm() > 0.0 ? along.norm() / line.norm() : 0.0;  // sine of the angle from vertical
      if (flat < steep && parent >= 0 && parent < n) {  // steep: towards the body's backward direction
        Vec3 back = world[parent].block<3, 3>(0, 0) * t.back_in_parent;
        back.y() = 0.0;
        const double w = 1.0 - flat / steep;
        along = (1.0 - w) * (along.norm() > 0.0 ? Vec3(along / along.norm()) : Vec3::Zero()) +
                w * (back.norm() > 0.0 ? Vec3(back / back.norm()) : Vec3::Zero());
      }
      const double len = along.norm();
      if (!(len > 1e-9 * std::max(1.0, position(world[t.root]).norm())) || !along.allFinite()) return Vec3::Zero();
      return (along / len).cross(Vec3::UnitY()).normalized();
    };
    const TurnedSkin skin{t.root, t.vertices};
    ArmClearanceResult one = turn_skins_above_floor(c, std::span<const TurnedSkin>(&skin, 1), across, res.clip, times, o);
    res.clip = std::move(one.clip);
    res.angle.push_back(std::move(one.angle.front()));
    res.clearance.push_back(std::move(one.clearance.front()));
  }
  return res;
}

}  // namespace rig
