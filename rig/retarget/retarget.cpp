#include "rig/retarget/retarget.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/pose.h"
#include "rig/retarget/track_sampling.h"

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

// Where the hind thighs attach, from the hips joint (bind space), when that
// is over a quarter leg away from it; zero otherwise (the hips joint is the
// pivot).
Vec3 pelvis_pivot(const Calibration& c) {
  Vec3 sum = Vec3::Zero();
  int count = 0;
  for (int j = 0; j < c.size(); ++j)
    if (c.roles[j].part == BodyPart::kThigh && !c.roles[j].front) {
      sum += position(c.bind_world[j]);
      ++count;
    }
  if (count == 0 || c.hips < 0) return Vec3::Zero();
  const Vec3 off = sum / count - c.hips_bind_position;
  return off.norm() > 0.25 * c.leg_length ? off : Vec3::Zero();
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

// How much of the turn from a target arm bone's rest direction onto the
// source's a retarget applies, by the angle between them: none up to
// kAlignFromDeg (a T-pose's few degrees of difference keep the copied turns
// exactly), all from kAlignFullDeg to kAlignUntilDeg (an A-pose's arms
// 30-50 deg below a T-pose's), none again from kAlignNoneDeg (a limb that
// points elsewhere entirely, a T-Rex's small arms forward against a human's
// out to the side, keeps its own rest); linear between.
constexpr double kAlignFromDeg = 10.0, kAlignFullDeg = 25.0, kAlignUntilDeg = 60.0, kAlignNoneDeg = 75.0;

double rest_alignment_share(double angle_deg) {
  return std::clamp((angle_deg - kAlignFromDeg) / (kAlignFullDeg - kAlignFromDeg), 0.0, 1.0) *
         std::clamp((kAlignNoneDeg - angle_deg) / (kAlignNoneDeg - kAlignUntilDeg), 0.0, 1.0);
}

// Reading chosen: a retarget copies each mapped joint's turn from the
// source's rest onto the target's rest, so a rest held differently stays
// different all clip long: an A-pose target's arms hang 40 deg below a
// T-pose mocap's at every key, and a walk's arms, down at the sides, pass
// through the body. Per target joint, a turn A in bind space applied before
// the copied turns: an upper arm or forearm (to its mapped child whose
// source is the source joint's child) takes the least turn that brings its
// rest direction, as its parent's A leaves it, onto the source's (turned by
// `face`), by rest_alignment_share, on top of its parent's A; every other
// joint takes its parent's (a hand with its forearm, fingers with their
// hand, a forearm without a mapped hand with its upper arm: no kink at any
// joint). Identity outside the arms. (elbow_bend.cpp measures a bend from
// the bind locals: a rest elbow bent over 10 deg unlike the source's, whose
// forearm then takes a turn of its own, counts that difference as bend.)
std::vector<Quat> arm_rest_alignment(const Calibration& src, const Calibration& dst,
                                     const std::vector<int>& source_of, const Eigen::Matrix3d& face) {
  const int nt = dst.size();
  std::vector<Quat> align(static_cast<size_t>(nt), Quat::Identity());
  std::vector<int> mapped_child(static_cast<size_t>(nt), -1);
  for (int k = 0; k < nt; ++k) {
    const int p = dst.parents[k];
    if (p < 0 || p >= nt || source_of[k] < 0 || source_of[p] < 0 || mapped_child[p] >= 0) continue;
    if (src.parents[source_of[k]] == source_of[p]) mapped_child[p] = k;
  }
  for (int j = 0; j < nt; ++j) {  // topological order: parents first
    const int p = dst.parents[j];
    if (p >= 0 && p < nt) align[j] = align[p];
    const int sj = source_of[j];
    const BodyPart part = dst.roles[j].part;
    if (sj < 0 || (part != BodyPart::kUpperArm && part != BodyPart::kForearm) || mapped_child[j] < 0) continue;
    const int child = mapped_child[j];
    const Vec3 to = face * (position(src.bind_world[source_of[child]]) - position(src.bind_world[sj]));
    const Vec3 from = align[j] * (position(dst.bind_world[child]) - position(dst.bind_world[j]));
    if (!(from.norm() > 0.0) || !(to.norm() > 0.0) || !from.allFinite() || !to.allFinite()) continue;
    const Quat full = Quat::FromTwoVectors(from, to).normalized();
    const double angle = full.angularDistance(Quat::Identity()) * 180.0 / std::numbers::pi;
    const double share = rest_alignment_share(angle);
    if (share > 0.0) align[j] = (Quat::Identity().slerp(share, full) * align[j]).normalized();
  }
  return align;
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

std::vector<std::pair<int, int>> map_joints_by_name(const Calibration& src, const Calibration& dst,
                                                    const std::vector<std::pair<int, int>>& by_role) {
  const int nt = dst.size(), ns = src.size();
  std::vector<int> source_of(static_cast<size_t>(nt), -1);
  for (const auto& [tj, sj] : by_role)
    if (tj >= 0 && tj < nt && sj >= 0 && sj < ns) source_of[tj] = sj;
  std::map<std::string, int> source_named;
  for (int i = 0; i < ns; ++i) source_named.emplace(src.names[i], i);  // first of a repeated name
  std::vector<std::pair<int, int>> pairs;
  for (int j = 0; j < nt; ++j) {  // topological order: a parent is mapped before its children
    const int p = dst.parents[j];
    if (source_of[j] >= 0 || p < 0 || p >= nt || source_of[p] < 0) continue;
    const auto it = source_named.find(dst.names[j]);
    if (it == source_named.end()) continue;
    const int sj = it->second;
    const Role& a = src.roles[sj];
    const Role& b = dst.roles[j];
    if (src.parents[sj] != source_of[p] || a.part != b.part || a.side != b.side || a.front != b.front) continue;
    source_of[j] = sj;
    pairs.emplace_back(j, sj);
  }
  return pairs;
}

Clip retarget(const Character& source, const Clip& clip, const Calibration& src,
              const Calibration& dst, const Skeleton& target, double sample_rate, bool joints_by_name) {
  // No exceptions cross the library boundary: a mismatch gives an empty clip.
  if (source.skeleton.size() != src.size() || target.size() != dst.size() ||
      !(sample_rate > 0 && std::isfinite(sample_rate)))
    return Clip{};
  const int nt = dst.size();
  std::vector<int> source_of(nt, -1);
  const std::vector<std::pair<int, int>> by_role = map_joints_by_role(src, dst);
  for (const auto& [tj, sj] : by_role) source_of[tj] = sj;
  // Joints the roles leave out matched by name under matched parents (a
  // rig family's hip-hike, tail or neck bones) turn as any mapped joint. The
  // family's own joints (mapped by name, or by role under the same name)
  // also take a translation the clip animates, as its change from bind,
  // scaled like the hips' travel (the T-Rex walk's spine and hip-hike
  // translations); another rig's joint of the same role does not.
  std::vector<char> same_joint(nt, 0);
  if (joints_by_name) {
    for (const auto& [tj, sj] : by_role) same_joint[tj] = dst.names[tj] == src.names[sj] ? 1 : 0;
    for (const auto& [tj, sj] : map_joints_by_name(src, dst, by_role)) {
      source_of[tj] = sj;
      same_joint[tj] = 1;
    }
  }
  std::vector<char> src_moved(static_cast<size_t>(src.size()), 0);
  for (const JointTracks& jt : clip.tracks)
    if (jt.joint >= 0 && jt.joint < src.size() && !jt.translation.values.empty()) src_moved[jt.joint] = 1;
  // The source's facing turned onto the target's (a clip walking along +Z
  // onto a character built facing +X walks along +X): source bind space ->
  // target bind space, a turn about Y (identity when they face alike).
  const Eigen::Matrix3d face = dst.facing.to_canonical.transpose() * src.facing.to_canonical;
  const Quat face_turn = Quat(face).normalized();
  // Per mapped joint: source bind^-1 * F^-1 * A * target bind, A the arm
  // rest alignment (identity but for arms held differently at rest).
  const std::vector<Quat> align = arm_rest_alignment(src, dst, source_of, face);
  std::vector<Quat> offset(nt, Quat::Identity());
  for (int j = 0; j < nt; ++j) {
    if (source_of[j] >= 0) {
      offset[j] = (src.bind_world_rotation[source_of[j]].conjugate() * face_turn.conjugate() * align[j] *
                   dst.bind_world_rotation[j])
                      .normalized();
    }
  }
  const bool move_hips = src.hips >= 0 && dst.hips >= 0;
  const double scale = src.leg_length > 0 ? dst.leg_length / src.leg_length : 1.0;
  // The pelvis pivot: where the hind thighs attach. A rig whose pelvis joint
  // sits far from them (a root at the floor, a body bone above the hips)
  // would otherwise swing the legs about the wrong point when the source
  // pelvis turns. Offset from the hips joint, bind space; the source's own
  // pivot (hung rigidly from its pelvis joint) is the point whose travel the
  // target's follows: a source of that build (a rig family's other member)
  // moves its thighs, not its pelvis joint, the way the target's must go.
  const Vec3 pivot = move_hips ? pelvis_pivot(dst) : Vec3::Zero();
  const Vec3 src_pivot = move_hips ? pelvis_pivot(src) : Vec3::Zero();
  const Mat4 src_hips_bind_inverse = move_hips ? Mat4(src.bind_world[src.hips].inverse()) : Mat4::Identity();
  Vec3 src_pivot_in_hips = (src_hips_bind_inverse * (src.hips_bind_position + src_pivot).homogeneous()).head<3>();
  if (!src_pivot_in_hips.allFinite()) src_pivot_in_hips = Vec3::Zero();  // a degenerate bind frame
  // Root motion: a rig whose hips hang under a root joint gets the hips'
  // travel over the floor on that root, so skin weighted to the root (the
  // T-Rex's feet carry up to 0.2 of it) travels with the body instead of
  // being left at the origin, stretched between it and the walking feet.
  int ground_root = -1;
  if (move_hips)
    for (int j = dst.parents[dst.hips]; j >= 0; j = dst.parents[j]) ground_root = j;
  // Detached feet (hung under the root like IK targets) follow their shin:
  // foot world position = shin world * the foot's bind offset in the shin,
  // moved by as much as the source's foot leaves its own shin's bind offset
  // (a source whose foot is an IK target too, a rig family's other member:
  // its feet do not ride rigidly on its shins; a mocap ankle does, and adds
  // nothing), in bind space, turned by F and scaled by the leg ratio.
  struct Detached {
    int foot, shin;
    Vec3 offset;
    int src_foot = -1, src_shin = -1;
    Vec3 src_offset = Vec3::Zero();
    Eigen::Matrix3d to_target = Eigen::Matrix3d::Zero();
  };
  std::vector<Detached> detached;
  for (const Leg& leg : find_legs(target)) {
    if (!leg.detached_foot) continue;
    Detached d{leg.foot, leg.shin,
               (dst.bind_world[leg.shin].inverse() * position(dst.bind_world[leg.foot]).homogeneous()).head<3>()};
    d.src_foot = source_of[leg.foot];
    d.src_shin = source_of[leg.shin];
    if (d.src_foot >= 0 && d.src_shin >= 0) {
      d.src_offset = (src.bind_world[d.src_shin].inverse() * position(src.bind_world[d.src_foot]).homogeneous())
                         .head<3>();
      d.to_target = dst.bind_world[leg.shin].block<3, 3>(0, 0).inverse() * face *
                    src.bind_world[d.src_shin].block<3, 3>(0, 0) * scale;
      if (!d.to_target.allFinite() || !d.src_offset.allFinite()) d.src_foot = d.src_shin = -1;  // degenerate bind
    }
    detached.push_back(d);
  }
  auto is_detached = [&](int j) {
    return std::any_of(detached.begin(), detached.end(), [&](const Detached& d) { return d.foot == j; });
  };

  auto parent_linear = [](const Calibration& c, int j) -> Eigen::Matrix3d {
    const int p = c.parents[j];
    return (p < 0 ? c.root_parent_world[j] : c.bind_world[p]).block<3, 3>(0, 0);
  };
  // Such a joint's translation change, source parent's bind frame -> the
  // target parent's: through bind space, turned and scaled. Not the hips,
  // the ground root or a detached foot: placed below.
  std::vector<char> slides(nt, 0);
  std::vector<Eigen::Matrix3d> slide_map(nt, Eigen::Matrix3d::Zero());
  for (int j = 0; j < nt; ++j) {
    if (!same_joint[j] || source_of[j] < 0 || !src_moved[source_of[j]] || j == ground_root ||
        (move_hips && j == dst.hips) || is_detached(j))
      continue;
    slides[j] = 1;
    slide_map[j] = parent_linear(dst, j).inverse() * face * parent_linear(src, source_of[j]) * scale;
    if (!slide_map[j].allFinite()) slide_map[j].setZero();  // a degenerate bind frame: no slide
  }

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
    if ((move_hips && j == dst.hips) || j == ground_root || is_detached(j) || slides[j]) {
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
    // The source pivot's travel from bind, turned and scaled: one per sample.
    const Vec3 shift =
        move_hips ? Vec3(face *
                         ((src_world[src.hips] * src_pivot_in_hips.homogeneous()).head<3>() -
                          (src.hips_bind_position + src_pivot)) *
                         scale)
                  : Vec3::Zero();
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
      if (slides[j]) {
        const int sj = source_of[j];
        l.translation += slide_map[j] * (src_locals[sj].translation - src.neutral_local[sj].translation);
        out.tracks[j].translation.values.push_back(l.translation);
      }
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
      Vec3 at = d.offset;
      if (d.src_foot >= 0 && d.src_shin >= 0) {
        const Vec3 src_now = (src_world[d.src_shin].inverse() * position(src_world[d.src_foot]).homogeneous()).head<3>();
        at += d.to_target * (src_now - d.src_offset);
      }
      const Vec3 want = (dst_world[d.shin] * at.homogeneous()).head<3>();
      dst_locals[d.foot].translation = (pw.inverse() * want.homogeneous()).head<3>();
      out.tracks[d.foot].translation.values.push_back(dst_locals[d.foot].translation);
    }
  }
  return out;
}

}  // namespace rig
