#include "rig/retarget/clearance/arm_clearance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <array>

#include "rig/retarget/contact/grounding.h"  // dominant_joint, prop_joint_mask, tail_joint_mask, smooth_lift
#include "rig/model/lowest_skin.h"
#include "rig/model/pose.h"
#include "rig/anatomy/roles.h"
#include "rig/model/weld.h"

namespace rig {
namespace {

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }

// Lowest skinned y of the indexed vertices under world matrices `world`
// (lowest_skin.h: the lowest a scan of every vertex finds).
struct LowestY {
  std::vector<Eigen::RowVector4d> height;  // scratch
  std::vector<std::pair<double, int>> order;
  double operator()(const Character& c, const LowestSkinIndex& index, std::span<const Mat4> world) {
    skinning_heights(c.skeleton, world, height);
    return lowest_skinned(c, index, height, [](int) { return true; }, order).y;
  }
};

// What turning `joint` changes of a skin's heights: the joints below it
// (itself included) that the skin's index reads or that lie above one it
// reads, ascending (parents first), and the index's joints among them.
struct TrialPose {
  std::vector<int> posed, heights;
};

TrialPose trial_pose_of(const Skeleton& sk, int joint, const LowestSkinIndex& index) {
  const size_t n = static_cast<size_t>(sk.size());
  std::vector<char> below(n, 0), read(n, 0), needed(n, 0);
  for (int i = joint; i < sk.size(); ++i) below[i] = i == joint || (sk.parents[i] >= 0 && below[sk.parents[i]]);
  for (const LowestSkinIndex::Group& g : index.groups)
    for (int j : g.joints) read[static_cast<size_t>(j)] = 1;
  TrialPose t;
  for (int i = sk.size() - 1; i >= joint; --i) {
    if (!below[i]) continue;
    needed[i] = needed[i] || read[i];
    if (needed[i] && sk.parents[i] >= 0) needed[sk.parents[i]] = 1;
  }
  for (int i = joint; i < sk.size(); ++i) {
    if (below[i] && needed[i]) t.posed.push_back(i);
    if (below[i] && read[i]) t.heights.push_back(i);
  }
  return t;
}

// The upper arm's local rotation turned by `angle` about the world `axis`
// through its joint: world R * W becomes, in the parent's frame (rotation
// `parent`), (P^-1 R P) * L.
Quat turned(const Quat& parent, const Quat& local, const Vec3& axis, double angle) {
  const Quat r(Eigen::AngleAxisd(angle, axis));
  return (parent.conjugate() * r * parent * local).normalized();
}

// World axis the arm turns about at this pose: horizontal outward (from the
// other shoulder, or from the hips) crossed with up, so a hanging arm swings
// out to the side. Zero when the outward direction is not defined.
Vec3 outward_axis(const Skeleton& sk, const ArmSkin& arm, std::span<const Mat4> world) {
  if (arm.upper_arm < 0 || arm.upper_arm >= sk.size() || world.size() != static_cast<size_t>(sk.size()))
    return Vec3::Zero();
  const int hips = hips_joint(sk);
  const int from = arm.other_upper_arm >= 0 ? arm.other_upper_arm : hips;
  if (from < 0) return Vec3::Zero();
  Vec3 out = position(world[arm.upper_arm]) - position(world[from]);
  out.y() = 0.0;
  const double len = out.norm();
  if (!(len > 1e-9 * std::max(1.0, position(world[arm.upper_arm]).norm()))) return Vec3::Zero();
  return (out / len).cross(Vec3::UnitY()).normalized();
}

}  // namespace

std::vector<char> carried_object_vertices(const Character& c, double weld_tolerance) {
  const int nv = c.mesh.vertex_count();
  std::vector<char> out(static_cast<size_t>(std::max(0, nv)), 0);
  if (!c.has_skin() || c.skin.influences.size() < static_cast<size_t>(nv)) return out;
  const std::vector<bool> prop = prop_joint_mask(c.skeleton);
  if (std::none_of(prop.begin(), prop.end(), [](bool b) { return b; })) return out;
  const Welded w = weld_by_position(c.mesh.positions, c.mesh.triangles, weld_tolerance);
  std::vector<int> parent(static_cast<size_t>(w.count()));
  std::iota(parent.begin(), parent.end(), 0);
  for (const std::array<int, 3>& t : w.triangles)
    for (int e = 1; e < 3; ++e) parent[find_root(parent, t[e])] = find_root(parent, t[0]);
  std::vector<char> all_prop(parent.size(), 1);  // per island root: every vertex prop-dominated
  for (int v = 0; v < nv; ++v) {
    const int d = dominant_joint(c.skin.influences[v]);
    if (d < 0 || d >= static_cast<int>(prop.size()) || !prop[d]) all_prop[find_root(parent, w.weld_of[v])] = 0;
  }
  for (int v = 0; v < nv; ++v) out[v] = all_prop[find_root(parent, w.weld_of[v])];
  return out;
}

std::vector<ArmSkin> arm_skins(const Character& c, std::span<const char> carried) {
  const Skeleton& sk = c.skeleton;
  const int n = sk.size();
  auto role = [&](int j) { return j < static_cast<int>(sk.roles.size()) ? sk.roles[j] : Role{}; };
  std::vector<ArmSkin> arms;
  std::vector<int> arm_of(static_cast<size_t>(n), -1);  // parents come first (topological order)
  for (int j = 0; j < n; ++j) {
    if (role(j).part == BodyPart::kUpperArm) {
      arm_of[j] = static_cast<int>(arms.size());
      arms.push_back(ArmSkin{j, -1, {}});
    } else if (sk.parents[j] >= 0) {
      arm_of[j] = arm_of[sk.parents[j]];
    }
  }
  for (ArmSkin& a : arms)
    for (const ArmSkin& b : arms)
      if (a.other_upper_arm < 0 && role(b.upper_arm).side != role(a.upper_arm).side) a.other_upper_arm = b.upper_arm;
  if (!c.has_skin()) return arms;
  const std::vector<bool> tail = tail_joint_mask(sk);
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  for (int v = 0; v < nv; ++v) {
    const int d = dominant_joint(c.skin.influences[v]);
    if (d < 0 || d >= n || arm_of[d] < 0 || tail[d]) continue;
    if (static_cast<size_t>(v) < carried.size() && carried[v]) continue;
    arms[arm_of[d]].vertices.push_back(v);
  }
  return arms;
}

ArmClearanceResult turn_skins_above_floor(const Character& c, std::span<const TurnedSkin> skins, const TurnAxis& axis_at,
                                          const Clip& clip, std::span<const double> times, const ArmClearanceOptions& opt) {
  ArmClearanceResult res;
  res.clip = clip;
  const Skeleton& sk = c.skeleton;
  const size_t n = times.size();
  res.angle.assign(skins.size(), std::vector<double>(n, 0.0));
  res.clearance.assign(skins.size(), std::vector<double>(n, 0.0));
  if (skins.empty() || n == 0 || !c.has_skin() || !std::is_sorted(times.begin(), times.end()) ||
      !std::isfinite(opt.floor_y))
    return res;
  // Skinning rounds: skin resting exactly on the floor is clear.
  const double tolerance = 1e-9 * (1.0 + std::abs(opt.floor_y));
  const double max_angle = std::isfinite(opt.max_angle) ? std::clamp(opt.max_angle, 0.0, M_PI) : 0.0;
  const int steps = std::clamp(opt.bisection_steps, 0, 40);
  auto usable = [&](const TurnedSkin& s) { return s.joint >= 0 && s.joint < sk.size() && !s.vertices.empty(); };

  std::vector<LowestSkinIndex> index(skins.size());
  std::vector<TrialPose> trial_pose(skins.size());
  for (size_t a = 0; a < skins.size(); ++a)
    if (usable(skins[a])) {
      index[a] = index_lowest_skin(c, skins[a].vertices);
      trial_pose[a] = trial_pose_of(sk, skins[a].joint, index[a]);
    }
  LowestY lowest_y;
  std::vector<Mat4> trial_world;
  std::vector<Eigen::RowVector4d> trial_height;
  std::vector<std::vector<Vec3>> axes(skins.size(), std::vector<Vec3>(n, Vec3::Zero()));
  std::vector<std::vector<Quat>> parent_rot(skins.size(), std::vector<Quat>(n, Quat::Identity()));
  std::vector<std::vector<Quat>> local_rot(skins.size(), std::vector<Quat>(n, Quat::Identity()));
  std::vector<Transform> locals;
  for (size_t k = 0; k < n; ++k) {
    locals = sk.neutral_local;
    apply_clip(clip, times[k], locals);
    const std::vector<Mat4> world = local_to_world(sk, locals);
    for (size_t a = 0; a < skins.size(); ++a) {
      const TurnedSkin& skin = skins[a];
      if (!usable(skin)) continue;
      const int p = sk.parents[skin.joint];
      parent_rot[a][k] = Transform::from_matrix(p < 0 ? sk.root_parent_world[skin.joint] : world[p]).rotation;
      local_rot[a][k] = locals[skin.joint].rotation;
      axes[a][k] = axis_at(a, world);
      if (!axes[a][k].allFinite()) axes[a][k].setZero();
      res.clearance[a][k] = lowest_y(c, index[a], world) - opt.floor_y;
      if (res.clearance[a][k] >= -tolerance || axes[a][k].isZero()) continue;
      // The sample's pose with the joint turned: only the joints below it
      // that the skin's heights read are posed again (as local_to_world
      // poses them), and only their heights redone (as skinning_heights).
      trial_world = world;
      trial_height = lowest_y.height;
      auto clearance_at = [&](double angle) {
        const Quat rotation = turned(parent_rot[a][k], local_rot[a][k], axes[a][k], angle);
        for (int i : trial_pose[a].posed) {
          Transform local = locals[i];
          if (i == skin.joint) local.rotation = rotation;
          const int pi = sk.parents[i];
          trial_world[i] = (pi < 0 ? sk.root_parent_world[i] : trial_world[pi]) * local.matrix();
        }
        for (int j : trial_pose[a].heights) trial_height[j] = skinning_height(trial_world[j], sk.inverse_bind[j]);
        // Only the sign is read: the skin above the floor is not searched
        // (lowest_skinned_below; y - floor_y < 0 exactly when y < floor_y).
        const double low = lowest_skinned_below(
            index[a], trial_height, opt.floor_y, [](int) { return true; },
            [&](int v) { return skinned_height(c, v, trial_height); }, lowest_y.order).y;
        return low < opt.floor_y ? low - opt.floor_y : 0.0;
      };
      double lo = 0.0, hi = max_angle;
      // A turn that cannot clear the floor (the shoulder itself is low: a
      // crawl, a roll) is not made: the skin is left as the clip has it.
      if (clearance_at(hi) < 0.0) continue;
      for (int s = 0; s < steps; ++s) {
        const double mid = 0.5 * (lo + hi);
        (clearance_at(mid) >= 0.0 ? hi : lo) = mid;
      }
      res.angle[a][k] = hi;
    }
  }

  const int radius = smoothing_samples(times, opt.smoothing_radius_s);
  bool turned_any = false;  // else res.clip is `clip` and the clearances stand
  for (size_t a = 0; a < skins.size(); ++a) {
    if (std::all_of(res.angle[a].begin(), res.angle[a].end(), [](double x) { return x == 0.0; })) continue;
    turned_any = true;
    res.angle[a] = smooth_lift(res.angle[a], radius);
    const int j = skins[a].joint;
    auto it = std::find_if(res.clip.tracks.begin(), res.clip.tracks.end(), [&](const JointTracks& jt) { return jt.joint == j; });
    if (it == res.clip.tracks.end()) {
      res.clip.tracks.push_back(JointTracks{});
      it = res.clip.tracks.end() - 1;
      it->joint = j;
    }
    key_track_at(it->rotation, sk.neutral_local[j].rotation, times);
    for (size_t k = 0; k < n; ++k) {
      res.angle[a][k] = std::min(res.angle[a][k], max_angle);
      if (res.angle[a][k] > 0.0 && !axes[a][k].isZero())
        it->rotation.values[k] = turned(parent_rot[a][k], local_rot[a][k], axes[a][k], res.angle[a][k]);
      else
        res.angle[a][k] = 0.0;
    }
  }
  // The clearance after the turns, as the clip now poses them (the same
  // numbers as above when nothing turned).
  if (!turned_any) return res;
  for (size_t k = 0; k < n; ++k) {
    locals = sk.neutral_local;
    apply_clip(res.clip, times[k], locals);
    const std::vector<Mat4> world = local_to_world(sk, locals);
    for (size_t a = 0; a < skins.size(); ++a)
      if (usable(skins[a])) res.clearance[a][k] = lowest_y(c, index[a], world) - opt.floor_y;
  }
  return res;
}

ArmClearanceResult keep_arms_above_floor(const Character& c, std::span<const ArmSkin> arms, const Clip& clip,
                                         std::span<const double> times, const ArmClearanceOptions& opt) {
  std::vector<TurnedSkin> skins;
  skins.reserve(arms.size());
  for (const ArmSkin& arm : arms) skins.push_back({arm.upper_arm, arm.vertices});
  const TurnAxis outward = [&](size_t a, std::span<const Mat4> world) {
    return outward_axis(c.skeleton, arms[a], world);
  };
  return turn_skins_above_floor(c, skins, outward, clip, times, opt);
}

}  // namespace rig
