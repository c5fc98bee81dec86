#include "rig/retarget.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "rig/limb_contact.h"
#include "rig/pose.h"
#include "track_sampling.h"

namespace rig {
namespace {

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }

bool is_ancestor(const std::vector<int>& parents, int ancestor, int joint) {
  for (int j = parents[joint]; j >= 0; j = parents[j]) {
    if (j == ancestor) return true;
  }
  return false;
}

// Full chain length thigh -> shin -> foot of one side, or 0 when incomplete.
double leg_chain(const Calibration& c, Side side) {
  int thigh = -1, shin = -1, foot = -1;
  int n_thigh = 0, n_shin = 0, n_foot = 0;
  for (int i = 0; i < c.size(); ++i) {
    if (c.roles[i].side != side || c.roles[i].front) continue;  // hind legs
    switch (c.roles[i].part) {
      case BodyPart::kThigh: thigh = i; ++n_thigh; break;
      case BodyPart::kShin: shin = i; ++n_shin; break;
      case BodyPart::kFoot: foot = i; ++n_foot; break;
      default: break;
    }
  }
  if (n_thigh != 1 || n_shin != 1 || n_foot != 1) return 0.0;
  return (position(c.bind_world[shin]) - position(c.bind_world[thigh])).norm() +
         (position(c.bind_world[foot]) - position(c.bind_world[shin])).norm();
}

// Spine joints below the hips in chain order, or empty if they are no chain.
std::vector<int> spine_chain(const Calibration& c) {
  std::vector<int> out;
  for (int i = 0; i < c.size(); ++i) {
    if (c.roles[i].part != BodyPart::kSpine) continue;
    if (c.hips >= 0 && !is_ancestor(c.parents, c.hips, i)) continue;
    out.push_back(i);  // topological order: ancestors first
  }
  for (size_t k = 1; k < out.size(); ++k) {
    if (!is_ancestor(c.parents, out[k - 1], out[k])) return {};
  }
  return out;
}

Quat root_rotation(const Mat4& m) { return Transform::from_matrix(m).rotation; }

// World rotations and matrices of a calibrated skeleton for given locals.
void evaluate(const Calibration& c, const std::vector<Transform>& locals, std::vector<Quat>& rot,
              std::vector<Mat4>& world) {
  const int n = c.size();
  rot.resize(n);
  world.resize(n);
  for (int i = 0; i < n; ++i) {
    const int p = c.parents[i];
    const Quat pr = p < 0 ? root_rotation(c.root_parent_world[i]) : rot[p];
    const Mat4& pw = p < 0 ? c.root_parent_world[i] : world[p];
    rot[i] = (pr * locals[i].rotation).normalized();
    world[i] = pw * locals[i].matrix();
  }
}

}  // namespace

Calibration calibrate(const Skeleton& sk) {
  Calibration c;
  const int n = sk.size();
  c.names = sk.names;
  c.parents = sk.parents;
  c.roles = sk.roles;
  c.roles.resize(n);
  c.neutral_local = sk.neutral_local;
  c.root_parent_world = sk.root_parent_world;
  c.root_parent_world.resize(n, Mat4::Identity());
  c.bind_world = sk.bind_world;
  c.bind_world_rotation.reserve(n);
  for (const Mat4& m : c.bind_world) c.bind_world_rotation.push_back(root_rotation(m));
  for (int i = 0; i < n; ++i) {
    if (c.roles[i].part == BodyPart::kHips) {
      c.hips = i;
      break;
    }
  }
  if (c.hips >= 0) {
    c.hips_bind_position = position(c.bind_world[c.hips]);
    c.hips_bind_height = c.hips_bind_position.y();
  }
  const double l = leg_chain(c, Side::kLeft), r = leg_chain(c, Side::kRight);
  if (l > 0 && r > 0) {
    c.leg_length = 0.5 * (l + r);
  } else if (l > 0 || r > 0) {
    c.leg_length = std::max(l, r);
  } else {
    c.leg_length = c.hips_bind_height > 0 ? c.hips_bind_height : 1.0;
  }
  c.facing = facing_from_roles(sk);
  return c;
}

std::vector<std::pair<int, int>> map_joints_by_role(const Calibration& src, const Calibration& dst) {
  auto unique_roles = [](const Calibration& c) {
    std::map<std::pair<int, int>, int> first;
    std::map<std::pair<int, int>, int> count;
    for (int i = 0; i < c.size(); ++i) {
      const Role r = c.roles[i];
      if (r.part == BodyPart::kNone || r.part == BodyPart::kSpine) continue;
      const auto key = std::make_pair(static_cast<int>(r.part) * 2 + (r.front ? 1 : 0), static_cast<int>(r.side));
      if (count[key]++ == 0) first[key] = i;
    }
    std::map<std::pair<int, int>, int> out;
    for (const auto& [key, j] : first) {
      if (count[key] == 1) out[key] = j;
    }
    return out;
  };
  const auto s = unique_roles(src), d = unique_roles(dst);
  std::vector<std::pair<int, int>> pairs;
  for (const auto& [key, tj] : d) {
    auto it = s.find(key);
    if (it != s.end()) pairs.emplace_back(tj, it->second);
  }
  const std::vector<int> ss = spine_chain(src), ds = spine_chain(dst);
  for (size_t k = 0; k < std::min(ss.size(), ds.size()); ++k) pairs.emplace_back(ds[k], ss[k]);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

Clip retarget(const Character& source, const Clip& clip, const Calibration& src,
              const Calibration& dst, const Skeleton& target, double sample_rate) {
  // No exceptions cross the library boundary: a mismatch gives an empty clip.
  if (source.skeleton.size() != src.size() || target.size() != dst.size() ||
      !(sample_rate > 0 && std::isfinite(sample_rate)))
    return Clip{};
  const int nt = dst.size();
  std::vector<int> source_of(nt, -1);
  for (const auto& [tj, sj] : map_joints_by_role(src, dst)) source_of[tj] = sj;
  // The source's facing turned onto the target's (a clip walking along +Z
  // onto a character built facing +X walks along +X): source bind space ->
  // target bind space, a turn about Y (identity when they face alike).
  const Eigen::Matrix3d face = dst.facing.to_canonical.transpose() * src.facing.to_canonical;
  const Quat face_turn = Quat(face).normalized();
  // Per mapped joint: source bind^-1 * F^-1 * target bind.
  std::vector<Quat> offset(nt, Quat::Identity());
  for (int j = 0; j < nt; ++j) {
    if (source_of[j] >= 0) {
      offset[j] = (src.bind_world_rotation[source_of[j]].conjugate() * face_turn.conjugate() *
                   dst.bind_world_rotation[j])
                      .normalized();
    }
  }
  const bool move_hips = src.hips >= 0 && dst.hips >= 0;
  const double scale = src.leg_length > 0 ? dst.leg_length / src.leg_length : 1.0;
  // The pelvis pivot: where the hind thighs attach. A rig whose pelvis joint
  // sits far from them (a root at the floor, a body bone above the hips)
  // would otherwise swing the legs about the wrong point when the source
  // pelvis turns. Offset from the hips joint, bind space.
  Vec3 pivot = Vec3::Zero();
  if (move_hips) {
    Vec3 sum = Vec3::Zero();
    int count = 0;
    for (int j = 0; j < nt; ++j)
      if (dst.roles[j].part == BodyPart::kThigh && !dst.roles[j].front) {
        sum += position(dst.bind_world[j]);
        ++count;
      }
    if (count > 0) {
      const Vec3 off = sum / count - dst.hips_bind_position;
      if (off.norm() > 0.25 * dst.leg_length) pivot = off;
    }
  }
  // Root motion: a rig whose hips hang under a root joint gets the hips'
  // travel over the floor on that root, so skin weighted to the root (the
  // T-Rex's feet carry up to 0.2 of it) travels with the body instead of
  // being left at the origin, stretched between it and the walking feet.
  int ground_root = -1;
  if (move_hips)
    for (int j = dst.parents[dst.hips]; j >= 0; j = dst.parents[j]) ground_root = j;
  // Detached feet (hung under the root like IK targets) follow their shin:
  // foot world position = shin world * the foot's bind offset in the shin.
  struct Detached {
    int foot, shin;
    Vec3 offset;
  };
  std::vector<Detached> detached;
  for (const Leg& leg : find_legs(target))
    if (leg.detached_foot)
      detached.push_back({leg.foot, leg.shin,
                          (dst.bind_world[leg.shin].inverse() * position(dst.bind_world[leg.foot]).homogeneous()).head<3>()});
  auto is_detached = [&](int j) {
    return std::any_of(detached.begin(), detached.end(), [&](const Detached& d) { return d.foot == j; });
  };

  // Sample times: k / rate, the last one exactly at the duration.
  const std::vector<double> times = sample_times(clip.duration, sample_rate);
  const double duration = times.back();

  Clip out;
  out.name = clip.name;
  out.duration = duration;
  out.tracks.resize(nt);
  for (int j = 0; j < nt; ++j) {
    JointTracks& jt = out.tracks[j];
    jt.joint = j;
    jt.scale = constant_track(dst.neutral_local[j].scale);
    if (source_of[j] >= 0) {
      jt.rotation.times = times;
    } else {
      jt.rotation = constant_track(dst.neutral_local[j].rotation);
    }
    if ((move_hips && j == dst.hips) || j == ground_root || is_detached(j)) {
      jt.translation.times = times;
    } else {
      jt.translation = constant_track(dst.neutral_local[j].translation);
    }
  }

  std::vector<Transform> src_locals(src.neutral_local);
  std::vector<Quat> src_rot, dst_rot(nt);
  std::vector<Mat4> src_world, dst_world(nt);
  std::vector<Transform> dst_locals(dst.neutral_local);
  for (double t : times) {
    src_locals = src.neutral_local;
    apply_clip(clip, t, src_locals);
    evaluate(src, src_locals, src_rot, src_world);
    for (int j = 0; j < nt; ++j) {
      const int p = dst.parents[j];
      const Quat pr = p < 0 ? root_rotation(dst.root_parent_world[j]) : dst_rot[p];
      const Mat4& pw = p < 0 ? dst.root_parent_world[j] : dst_world[p];
      Transform& l = dst_locals[j];
      l = dst.neutral_local[j];
      if (source_of[j] >= 0) {
        const Quat want = (face_turn * src_rot[source_of[j]] * offset[j]).normalized();
        l.rotation = (pr.conjugate() * want).normalized();
        Track<Quat>& tr = out.tracks[j].rotation;
        if (!tr.values.empty() && tr.values.back().coeffs().dot(l.rotation.coeffs()) < 0) {
          l.rotation.coeffs() = -l.rotation.coeffs();
        }
        tr.values.push_back(l.rotation);
      }
      const Vec3 shift =
          move_hips ? Vec3(face * (position(src_world[src.hips]) - src.hips_bind_position) * scale) : Vec3::Zero();
      if (j == ground_root) {  // ancestors come first: the hips below see it
        const Vec3 travel(shift.x(), 0.0, shift.z());
        l.translation += pw.block<3, 3>(0, 0).inverse() * travel;
        out.tracks[j].translation.values.push_back(l.translation);
      }
      if (move_hips && j == dst.hips) {
        // The pivot moves with the source pelvis; the joint hangs off it.
        const Quat turn = (pr * l.rotation * dst.bind_world_rotation[j].conjugate()).normalized();
        const Vec3 want = dst.hips_bind_position + pivot + shift - turn * pivot;
        const Eigen::Vector4d local = pw.inverse() * want.homogeneous();
        l.translation = local.head<3>();
        out.tracks[j].translation.values.push_back(l.translation);
      }
      dst_rot[j] = (pr * l.rotation).normalized();
      dst_world[j] = pw * l.matrix();
    }
    for (const Detached& d : detached) {
      const int p = dst.parents[d.foot];
      const Mat4& pw = p < 0 ? dst.root_parent_world[d.foot] : dst_world[p];
      const Vec3 want = (dst_world[d.shin] * d.offset.homogeneous()).head<3>();
      dst_locals[d.foot].translation = (pw.inverse() * want.homogeneous()).head<3>();
      out.tracks[d.foot].translation.values.push_back(dst_locals[d.foot].translation);
    }
  }
  return out;
}

}  // namespace rig
