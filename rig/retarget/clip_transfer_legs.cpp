// The hips and leg steps of clip transfer (clip_transfer_legs.h) on the
// retargeted clip: the hips moved in world y with the detached feet following
// them, the least floor alignment every pinned stance foot reaches, and legs
// driven by the source's ankles.
#include "rig/retarget/clip_transfer_legs.h"

#include "rig/anatomy/facing.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rig/model/pose.h"

namespace rig {
namespace {

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }

// World matrices of `clip` at `t` on the neutral (bind) locals: never the
// stored pose, which the preview may have moved (SPEC §6).
std::vector<Mat4> neutral_pose_at(const Skeleton& sk, const Clip& clip, double t) {
  std::vector<Transform> locals = sk.neutral_local;
  apply_clip(clip, t, locals);
  return local_to_world(sk, locals);
}

// Feet hung outside their leg (under the root, like IK targets) do not
// move with the hips. Per detached foot keyed at `times`: its offset in its
// shin's frame at each key, as retarget placed it (the bind offset, or off
// it as the source's own IK foot was), to put it back there after the hips
// move.
struct DetachedOffsets {
  int foot, shin;
  std::vector<Vec3> in_shin;
};
std::vector<DetachedOffsets> detached_offsets(const Skeleton& sk, const std::vector<double>& times,
                                              const Clip& clip) {
  std::vector<DetachedOffsets> out;
  for (const Leg& leg : find_legs(sk)) {
    if (!leg.detached_foot) continue;
    auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(), [&](const JointTracks& jt) { return jt.joint == leg.foot; });
    if (it == clip.tracks.end() || it->translation.times != times) continue;  // retarget keys every detached foot
    out.push_back({leg.foot, leg.shin, {}});
  }
  if (out.empty()) return out;
  for (double t : times) {
    const std::vector<Mat4> world = neutral_pose_at(sk, clip, t);
    for (DetachedOffsets& d : out)
      d.in_shin.push_back((world[d.shin].inverse() * position(world[d.foot]).homogeneous()).head<3>());
  }
  return out;
}

// Whether joint `a` is `j` or one of its ancestors.
bool at_or_above(const Skeleton& sk, int a, int j) {
  for (int x = j; x >= 0; x = sk.parents[x])
    if (x == a) return true;
  return false;
}

void follow_detached_feet(const Skeleton& sk, const std::vector<double>& times,
                          const std::vector<DetachedOffsets>& feet, Clip& clip) {
  // When no foot moves what another foot is placed from (its shin, its
  // parent), each key is posed once for every foot: the same numbers as
  // one foot after another.
  bool independent = true;
  for (const DetachedOffsets& a : feet)
    for (const DetachedOffsets& b : feet)
      if (&a != &b && (at_or_above(sk, a.foot, b.shin) || at_or_above(sk, a.foot, sk.parents[b.foot]))) independent = false;
  if (independent && feet.size() > 1) {
    std::vector<std::vector<Vec3>*> values;
    for (const DetachedOffsets& d : feet) {
      auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(), [&](const JointTracks& jt) { return jt.joint == d.foot; });
      values.push_back(it == clip.tracks.end() || it->translation.times != times ? nullptr : &it->translation.values);
    }
    for (size_t k = 0; k < times.size(); ++k) {
      const std::vector<Mat4> world = neutral_pose_at(sk, clip, times[k]);
      for (size_t f = 0; f < feet.size(); ++f) {
        const DetachedOffsets& d = feet[f];
        if (!values[f] || k >= d.in_shin.size()) continue;
        const int p = sk.parents[d.foot];
        const Mat4 parent = p < 0 ? sk.root_parent_world[d.foot] : world[p];
        const Vec3 want = (world[d.shin] * d.in_shin[k].homogeneous()).head<3>();
        (*values[f])[k] = (parent.inverse() * want.homogeneous()).head<3>();
      }
    }
    return;
  }
  for (const DetachedOffsets& d : feet) {
    auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(), [&](const JointTracks& jt) { return jt.joint == d.foot; });
    if (it == clip.tracks.end() || it->translation.times != times) continue;
    const int p = sk.parents[d.foot];
    for (size_t k = 0; k < times.size() && k < d.in_shin.size(); ++k) {
      const std::vector<Mat4> world = neutral_pose_at(sk, clip, times[k]);
      const Mat4 parent = p < 0 ? sk.root_parent_world[d.foot] : world[p];
      const Vec3 want = (world[d.shin] * d.in_shin[k].homogeneous()).head<3>();
      it->translation.values[k] = (parent.inverse() * want.homogeneous()).head<3>();
    }
  }
}

double leg_length_bind(const Skeleton& sk, const Leg& leg) {
  return (position(sk.bind_world[leg.shin]) - position(sk.bind_world[leg.thigh])).norm() +
         (position(sk.bind_world[leg.foot]) - position(sk.bind_world[leg.shin])).norm();
}

Quat rotation_of(const Mat4& m) { return Transform::from_matrix(m).rotation; }

}  // namespace

void add_hips_world_y(const Skeleton& sk, int hips, const std::vector<double>& times, const std::vector<double>& dy,
                      Clip& clip) {
  auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(), [&](const JointTracks& jt) { return jt.joint == hips; });
  if (it == clip.tracks.end()) {
    clip.tracks.push_back(JointTracks{});
    it = clip.tracks.end() - 1;
    it->joint = hips;
  }
  const std::vector<DetachedOffsets> feet = detached_offsets(sk, times, clip);
  Track<Vec3>& tr = it->translation;
  if (tr.times != times) {
    std::vector<Vec3> values;
    for (double t : times) values.push_back(tr.empty() ? sk.neutral_local[hips].translation : sample(tr, t));
    tr.times = times;
    tr.values = values;
    tr.interpolation = Interpolation::kLinear;
  }
  const int p = sk.parents[hips];
  for (size_t k = 0; k < times.size(); ++k) {
    if (dy[k] == 0.0) continue;
    const Mat4 parent = p < 0 ? sk.root_parent_world[hips] : neutral_pose_at(sk, clip, times[k])[p];
    // World +y expressed in the parent's frame.
    tr.values[k] += parent.block<3, 3>(0, 0).inverse() * Vec3(0, dy[k], 0);
  }
  follow_detached_feet(sk, times, feet, clip);
}

double source_leg_reach(const Skeleton& source, const Clip& clip, const std::vector<double>& times) {
  double most = 1.0;
  const std::vector<Leg> legs = find_legs(source);
  if (legs.empty()) return most;
  for (double t : times) {
    const std::vector<Mat4> world = neutral_pose_at(source, clip, t);
    for (const Leg& leg : legs) {
      const double length = leg_length_bind(source, leg);
      const double reach = (position(world[leg.foot]) - position(world[leg.thigh])).norm();
      if (length > 0.0 && std::isfinite(reach)) most = std::max(most, reach / length);
    }
  }
  return std::min(most, kMaxLegReach);
}

namespace {

// lowest_reaching_alignment with the pose at key k from `world_at(k)`.
template <class WorldAt>
double lowest_reaching(const Skeleton& sk, int n, WorldAt&& world_at, const std::vector<std::vector<ContactPhase>>& phases,
                       const std::vector<std::vector<double>>& clearance, double reach_scale) {
  const std::vector<Leg> legs = find_legs(sk);
  std::vector<std::vector<bool>> stance;
  std::vector<char> needed(static_cast<size_t>(n), 0);
  for (const std::vector<ContactPhase>& leg : phases) {
    stance.push_back(contact_mask(leg, n));
    for (int k = 0; k < n; ++k) needed[static_cast<size_t>(k)] |= stance.back()[static_cast<size_t>(k)] ? 1 : 0;
  }
  double least = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < n; ++k) {
    if (!needed[static_cast<size_t>(k)]) continue;
    const std::vector<Mat4>& world = world_at(k);
    for (size_t li = 0; li < legs.size() && li < phases.size() && li < clearance.size(); ++li) {
      if (k >= static_cast<int>(clearance[li].size()) || !stance[li][static_cast<size_t>(k)]) continue;
      const Leg& leg = legs[li];
      // Hip to the pinned ankle (the foot moved onto the floor), before alignment.
      Vec3 v = position(world[leg.foot]) - position(world[leg.thigh]);
      v.y() -= clearance[li][static_cast<size_t>(k)];
      // A hair inside full extension: the IK then reaches it despite rounding.
      const double reach = leg_length_bind(sk, leg) * std::clamp(reach_scale, 1.0, kMaxLegReach) * (1.0 - 1e-6),
                   side2 = v.x() * v.x() + v.z() * v.z();
      if (side2 >= reach * reach) continue;  // out of reach at any height
      // |v + a y| <= reach  <=>  a >= -v.y - sqrt(reach^2 - side^2)
      least = std::max(least, -v.y() - std::sqrt(reach * reach - side2));
    }
  }
  return least;
}

}  // namespace

double lowest_reaching_alignment(const Skeleton& sk, const Clip& clip, const std::vector<double>& times,
                                 const std::vector<std::vector<ContactPhase>>& phases,
                                 const std::vector<std::vector<double>>& clearance, double reach_scale) {
  std::vector<Mat4> world;
  return lowest_reaching(
      sk, static_cast<int>(times.size()),
      [&](int k) -> const std::vector<Mat4>& { return world = neutral_pose_at(sk, clip, times[static_cast<size_t>(k)]); },
      phases, clearance, reach_scale);
}

double lowest_reaching_alignment(const Skeleton& sk, const std::vector<std::vector<Mat4>>& world,
                                 const std::vector<std::vector<ContactPhase>>& phases,
                                 const std::vector<std::vector<double>>& clearance, double reach_scale) {
  return lowest_reaching(
      sk, static_cast<int>(world.size()), [&](int k) -> const std::vector<Mat4>& { return world[static_cast<size_t>(k)]; },
      phases, clearance, reach_scale);
}

double straightness(const Skeleton& sk, const Leg& leg) {
  const double l = leg_length_bind(sk, leg);
  return l > 0 ? (position(sk.bind_world[leg.foot]) - position(sk.bind_world[leg.thigh])).norm() / l : 1.0;
}

int drive_legs_by_ankle(const Character& source, const Clip& clip, const Skeleton& sk,
                        const std::vector<double>& times, Clip& out) {
  const Skeleton& ss = source.skeleton;
  const std::vector<Leg> src_legs = find_legs(ss), dst_legs = find_legs(sk);
  struct Pair {
    Leg s, d;
    double scale;
    Vec3 s_bind, d_bind;  // ankle - thigh, bind
  };
  std::vector<Pair> pairs;
  for (const Leg& d : dst_legs)
    for (const Leg& s : src_legs)
      if (s.side == d.side && s.front == d.front && leg_length_bind(ss, s) > 0)
        pairs.push_back({s, d, leg_length_bind(sk, d) / leg_length_bind(ss, s),
                         position(ss.bind_world[s.foot]) - position(ss.bind_world[s.thigh]),
                         position(sk.bind_world[d.foot]) - position(sk.bind_world[d.thigh])});
  if (pairs.empty()) return 0;
  // The source's ankle offsets turned onto the target's facing (see
  // retarget); knees bend toward the target's forward.
  const Facing src_facing = facing_from_roles(ss), dst_facing = facing_from_roles(sk);
  const Eigen::Matrix3d face = dst_facing.to_canonical.transpose() * src_facing.to_canonical;
  const Vec3 forward = dst_facing.forward();
  const int n = static_cast<int>(times.size());
  std::vector<std::vector<Quat>> rot(pairs.size() * 3, std::vector<Quat>(n));
  std::vector<std::vector<Vec3>> foot_t(pairs.size(), std::vector<Vec3>(n));
  for (int k = 0; k < n; ++k) {
    const std::vector<Mat4> sw = neutral_pose_at(ss, clip, times[k]);
    std::vector<Transform> locals = sk.neutral_local;
    apply_clip(out, times[k], locals);
    const std::vector<Mat4> wm = local_to_world(sk, locals);
    for (size_t pi = 0; pi < pairs.size(); ++pi) {
      const Pair& p = pairs[pi];
      const Leg& leg = p.d;
      const Vec3 rel = position(sw[p.s.foot]) - position(sw[p.s.thigh]);
      const Vec3 a = position(wm[leg.thigh]), b = position(wm[leg.shin]), c = position(wm[leg.foot]);
      const Vec3 target = a + p.d_bind + face * (rel - p.s_bind) * p.scale;
      const Vec3 pole = rotation_of(wm[leg.foot]) * (rotation_of(sk.bind_world[leg.foot]).conjugate() * forward);
      const TwoBoneSolution sol = solve_two_bone(a, b, c, target, pole);
      auto parent_rot = [&](int j) {
        const int q = sk.parents[j];
        return q < 0 ? rotation_of(sk.root_parent_world[j]) : rotation_of(wm[q]);
      };
      const Quat q_thigh = rotation_of(wm[leg.thigh]), q_shin = rotation_of(wm[leg.shin]);
      // The foot keeps only the heading (turn about Y) of its retargeted
      // rotation: another foot's heel-to-toe roll tips a longer foot through
      // the floor in stance and lifts it off; flat, its sole stays pinnable.
      const Quat bind_foot = rotation_of(sk.bind_world[leg.foot]);
      const Quat delta = (rotation_of(wm[leg.foot]) * bind_foot.conjugate()).normalized();
      Quat yaw(delta.w(), 0.0, delta.y(), 0.0);
      yaw = yaw.norm() > 1e-12 ? yaw.normalized() : Quat::Identity();
      const Quat q_foot = (yaw * bind_foot).normalized();
      Quat r3[3];
      r3[0] = (parent_rot(leg.thigh).conjugate() * sol.upper * q_thigh).normalized();
      r3[1] = ((sol.upper * parent_rot(leg.shin)).conjugate() * sol.lower * q_shin).normalized();
      foot_t[pi][k] = locals[leg.foot].translation;
      if (leg.detached_foot) {
        r3[2] = (parent_rot(leg.foot).conjugate() * q_foot).normalized();
        const int fp = sk.parents[leg.foot];
        const Mat4 pw = fp < 0 ? sk.root_parent_world[leg.foot] : wm[fp];
        foot_t[pi][k] = (pw.inverse() * sol.end.homogeneous()).head<3>();
      } else {
        r3[2] = ((sol.lower * parent_rot(leg.foot)).conjugate() * q_foot).normalized();
      }
      for (int q = 0; q < 3; ++q) {
        if (k > 0 && rot[pi * 3 + q][k - 1].coeffs().dot(r3[q].coeffs()) < 0) r3[q].coeffs() = -r3[q].coeffs();
        rot[pi * 3 + q][k] = r3[q];
      }
    }
  }
  for (size_t pi = 0; pi < pairs.size(); ++pi) {
    const int joints[3] = {pairs[pi].d.thigh, pairs[pi].d.shin, pairs[pi].d.foot};
    for (int q = 0; q < 3; ++q) {
      auto it = std::find_if(out.tracks.begin(), out.tracks.end(), [&](const JointTracks& jt) { return jt.joint == joints[q]; });
      if (it == out.tracks.end()) {
        out.tracks.push_back(JointTracks{});
        it = out.tracks.end() - 1;
        it->joint = joints[q];
      }
      it->rotation.times = times;
      it->rotation.values = rot[pi * 3 + q];
      it->rotation.interpolation = Interpolation::kLinear;
      if (q == 2 && pairs[pi].d.detached_foot) {
        it->translation.times = times;
        it->translation.values = foot_t[pi];
        it->translation.interpolation = Interpolation::kLinear;
      }
    }
  }
  return static_cast<int>(pairs.size());
}

std::vector<std::vector<ContactPhase>> AlignPose::contacts(std::span<const double> times,
                                                           const LimbContactOptions& o) const {
  std::vector<std::vector<ContactPhase>> out;
  for (const foot_track::FootTrack& f : feet)
    out.push_back(detect_contact_phases(times, f.traj, o.floor_y, f.report.leg_length, o.contact));
  return out;
}

AlignPose align_pose(const Skeleton& sk, const Clip& clip, std::span<const double> times, const LimbContactOptions& lo) {
  AlignPose p;
  const std::vector<Leg> legs = find_legs(sk);
  if (legs.empty() || times.empty() || !std::is_sorted(times.begin(), times.end())) return p;
  for (size_t li = 0; li < legs.size(); ++li)
    if (li >= lo.sole_points.size() || lo.sole_points[li].empty()) return p;
  p.world = foot_track::poses(sk, clip, times, nullptr);
  p.feet = foot_track::track_feet(sk, legs, p.world, lo);
  for (const foot_track::FootTrack& f : p.feet) p.clearance.push_back(f.report.clearance_before);
  p.shared = true;
  return p;
}

}  // namespace rig
