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

namespace {

// The steps of retarget: a plan worked out once from the two calibrations,
// then applied at every sample.

// A detached foot (hung under the root like an IK target) and what places
// it from its shin.
struct Detached {
  int foot, shin;
  Vec3 offset;  // the foot's bind position in its shin's bind frame
  int src_foot = -1, src_shin = -1;  // the source's pair, or -1
  Vec3 src_offset = Vec3::Zero();    // the same offset on the source
  Eigen::Matrix3d to_target = Eigen::Matrix3d::Zero();  // source shin frame -> target's, turned and scaled
};

// What retarget applies at every sample.
struct RetargetPlan {
  std::vector<int> source_of;    // per target joint: its source joint, or -1
  std::vector<char> same_joint;  // per target joint: the rig family's own joint
  Eigen::Matrix3d face;          // source bind space -> target bind space
  Quat face_turn;                // the same as a rotation
  std::vector<Quat> offset;      // per target joint: rotation offset (identity when unmapped)
  bool move_hips = false;        // both sides have hips
  double scale = 1.0;            // target leg length / source's
  Vec3 pivot, src_pivot;         // pelvis pivots from the hips joint, bind space
  Vec3 src_pivot_in_hips;        // the source's pivot in its hips joint's bind frame
  int ground_root = -1;          // the root the hips hang under, or -1
  std::vector<Detached> detached;
  std::vector<char> slides;                   // per target joint: takes the source's translation change
  std::vector<Eigen::Matrix3d> slide_map;     // that change, source parent's frame -> target parent's
  bool is_detached(int j) const {
    return std::any_of(detached.begin(), detached.end(), [&](const Detached& d) { return d.foot == j; });
  }
};

// Maps target joints onto source joints: by role, then (joints_by_name)
// joints the roles leave out by name under matched parents (a rig family's
// hip-hike, tail or neck bones), which turn as any mapped joint. The
// family's own joints (mapped by name, or by role under the same name) are
// marked same_joint: they also take a translation the clip animates, as its
// change from bind, scaled like the hips' travel (the T-Rex walk's spine and
// hip-hike translations); another rig's joint of the same role does not.
void map_joints(const Calibration& src, const Calibration& dst, bool joints_by_name, RetargetPlan& plan) {
  const int nt = dst.size();
  plan.source_of.assign(nt, -1);
  const std::vector<std::pair<int, int>> by_role = map_joints_by_role(src, dst);
  for (const auto& [tj, sj] : by_role) plan.source_of[tj] = sj;
  plan.same_joint.assign(nt, 0);
  if (joints_by_name) {
    for (const auto& [tj, sj] : by_role) plan.same_joint[tj] = dst.names[tj] == src.names[sj] ? 1 : 0;
    for (const auto& [tj, sj] : map_joints_by_name(src, dst, by_role)) {
      plan.source_of[tj] = sj;
      plan.same_joint[tj] = 1;
    }
  }
}

// Turns the source's facing onto the target's (a clip walking along +Z onto
// a character built facing +X walks along +X: a turn about Y, identity when
// they face alike) and works out each mapped joint's rotation offset:
// source bind^-1 * F^-1 * A * target bind, A the arm rest alignment
// (identity but for arms held differently at rest).
void plan_rotations(const Calibration& src, const Calibration& dst, RetargetPlan& plan) {
  const int nt = dst.size();
  plan.face = dst.facing.to_canonical.transpose() * src.facing.to_canonical;
  plan.face_turn = Quat(plan.face).normalized();
  const std::vector<Quat> align = arm_rest_alignment(src, dst, plan.source_of, plan.face);
  plan.offset.assign(nt, Quat::Identity());
  for (int j = 0; j < nt; ++j) {
    if (plan.source_of[j] >= 0) {
      plan.offset[j] = (src.bind_world_rotation[plan.source_of[j]].conjugate() * plan.face_turn.conjugate() *
                        align[j] * dst.bind_world_rotation[j])
                           .normalized();
    }
  }
}

// Works out how the body travels: the leg scale, the pelvis pivots and the
// ground root.
void plan_hips(const Calibration& src, const Calibration& dst, RetargetPlan& plan) {
  plan.move_hips = src.hips >= 0 && dst.hips >= 0;
  plan.scale = src.leg_length > 0 ? dst.leg_length / src.leg_length : 1.0;
  // The pelvis pivot: where the hind thighs attach. A rig whose pelvis joint
  // sits far from them (a root at the floor, a body bone above the hips)
  // would otherwise swing the legs about the wrong point when the source
  // pelvis turns. Offset from the hips joint, bind space; the source's own
  // pivot (hung rigidly from its pelvis joint) is the point whose travel the
  // target's follows: a source of that build (a rig family's other member)
  // moves its thighs, not its pelvis joint, the way the target's must go.
  plan.pivot = plan.move_hips ? pelvis_pivot(dst) : Vec3::Zero();
  plan.src_pivot = plan.move_hips ? pelvis_pivot(src) : Vec3::Zero();
  const Mat4 src_hips_bind_inverse = plan.move_hips ? Mat4(src.bind_world[src.hips].inverse()) : Mat4::Identity();
  plan.src_pivot_in_hips =
      (src_hips_bind_inverse * (src.hips_bind_position + plan.src_pivot).homogeneous()).head<3>();
  if (!plan.src_pivot_in_hips.allFinite()) plan.src_pivot_in_hips = Vec3::Zero();  // a degenerate bind frame
  // Root motion: a rig whose hips hang under a root joint gets the hips'
  // travel over the floor on that root, so skin weighted to the root (the
  // T-Rex's feet carry up to 0.2 of it) travels with the body instead of
  // being left at the origin, stretched between it and the walking feet.
  plan.ground_root = -1;
  if (plan.move_hips)
    for (int j = dst.parents[dst.hips]; j >= 0; j = dst.parents[j]) plan.ground_root = j;
}

// Finds the detached feet, which follow their shin: foot world position =
// shin world * the foot's bind offset in the shin, moved by as much as the
// source's foot leaves its own shin's bind offset (a source whose foot is an
// IK target too, a rig family's other member: its feet do not ride rigidly
// on its shins; a mocap ankle does, and adds nothing), in bind space, turned
// by F and scaled by the leg ratio.
std::vector<Detached> detached_feet(const Calibration& src, const Calibration& dst, const Skeleton& target,
                                    const RetargetPlan& plan) {
  std::vector<Detached> detached;
  for (const Leg& leg : find_legs(target)) {
    if (!leg.detached_foot) continue;
    Detached d{leg.foot, leg.shin,
               (dst.bind_world[leg.shin].inverse() * position(dst.bind_world[leg.foot]).homogeneous()).head<3>()};
    d.src_foot = plan.source_of[leg.foot];
    d.src_shin = plan.source_of[leg.shin];
    if (d.src_foot >= 0 && d.src_shin >= 0) {
      d.src_offset = (src.bind_world[d.src_shin].inverse() * position(src.bind_world[d.src_foot]).homogeneous())
                         .head<3>();
      d.to_target = dst.bind_world[leg.shin].block<3, 3>(0, 0).inverse() * plan.face *
                    src.bind_world[d.src_shin].block<3, 3>(0, 0) * plan.scale;
      if (!d.to_target.allFinite() || !d.src_offset.allFinite()) d.src_foot = d.src_shin = -1;  // degenerate bind
    }
    detached.push_back(d);
  }
  return detached;
}

// Chooses the joints that slide: the family's own joints whose source
// translation the clip animates take its change, source parent's bind frame
// -> the target parent's, through bind space, turned and scaled. Not the
// hips, the ground root or a detached foot: placed by the sampling.
void plan_slides(const Calibration& src, const Calibration& dst, const Clip& clip, RetargetPlan& plan) {
  const int nt = dst.size();
  std::vector<char> src_moved(static_cast<size_t>(src.size()), 0);
  for (const JointTracks& jt : clip.tracks)
    if (jt.joint >= 0 && jt.joint < src.size() && !jt.translation.values.empty()) src_moved[jt.joint] = 1;
  auto parent_linear = [](const Calibration& c, int j) -> Eigen::Matrix3d {
    const int p = c.parents[j];
    return (p < 0 ? c.root_parent_world[j] : c.bind_world[p]).block<3, 3>(0, 0);
  };
  plan.slides.assign(nt, 0);
  plan.slide_map.assign(nt, Eigen::Matrix3d::Zero());
  for (int j = 0; j < nt; ++j) {
    if (!plan.same_joint[j] || plan.source_of[j] < 0 || !src_moved[plan.source_of[j]] || j == plan.ground_root ||
        (plan.move_hips && j == dst.hips) || plan.is_detached(j))
      continue;
    plan.slides[j] = 1;
    plan.slide_map[j] = parent_linear(dst, j).inverse() * plan.face * parent_linear(src, plan.source_of[j]) * plan.scale;
    if (!plan.slide_map[j].allFinite()) plan.slide_map[j].setZero();  // a degenerate bind frame: no slide
  }
}

// Lays out the output clip: per target joint, keys at `times` for what the
// plan animates, a constant bind local for the rest.
Clip output_tracks(const Clip& clip, const Calibration& dst, const RetargetPlan& plan,
                   const std::vector<double>& times) {
  const int nt = dst.size();
  Clip out;
  out.name = clip.name;
  out.duration = times.back();
  out.tracks.resize(nt);
  for (int j = 0; j < nt; ++j) {
    JointTracks& jt = out.tracks[j];
    jt.joint = j;
    jt.scale = constant_track(dst.neutral_local[j].scale);
    if (plan.source_of[j] >= 0) {
      jt.rotation.times = times;
    } else {
      jt.rotation = constant_track(dst.neutral_local[j].rotation);
    }
    if ((plan.move_hips && j == dst.hips) || j == plan.ground_root || plan.is_detached(j) || plan.slides[j]) {
      jt.translation.times = times;
    } else {
      jt.translation = constant_track(dst.neutral_local[j].translation);
    }
  }
  return out;
}

// Both skeletons' poses at one sample (kept between samples to reuse their
// storage).
struct SamplePoses {
  std::vector<Transform> src_locals;
  std::vector<Quat> src_rot, dst_rot;
  std::vector<Mat4> src_world, dst_world;
  std::vector<Transform> dst_locals;
};

// Retargets the pose at time t: appends each animated target joint's key
// to `out`.
void retarget_sample(const Calibration& src, const Calibration& dst, const Clip& clip, const RetargetPlan& plan,
                     double t, SamplePoses& poses, Clip& out) {
  const int nt = dst.size();
  poses.src_locals = src.neutral_local;
  apply_clip(clip, t, poses.src_locals);
  evaluate(src, poses.src_locals, poses.src_rot, poses.src_world);
  // The source pivot's travel from bind, turned and scaled: one per sample.
  const Vec3 shift =
      plan.move_hips ? Vec3(plan.face *
                            ((poses.src_world[src.hips] * plan.src_pivot_in_hips.homogeneous()).head<3>() -
                             (src.hips_bind_position + plan.src_pivot)) *
                            plan.scale)
                     : Vec3::Zero();
  for (int j = 0; j < nt; ++j) {
    const int p = dst.parents[j];
    const Quat pr = p < 0 ? root_rotation(dst.root_parent_world[j]) : poses.dst_rot[p];
    const Mat4& pw = p < 0 ? dst.root_parent_world[j] : poses.dst_world[p];
    Transform& l = poses.dst_locals[j];
    l = dst.neutral_local[j];
    if (plan.source_of[j] >= 0) {
      const Quat want = (plan.face_turn * poses.src_rot[plan.source_of[j]] * plan.offset[j]).normalized();
      l.rotation = (pr.conjugate() * want).normalized();
      Track<Quat>& tr = out.tracks[j].rotation;
      if (!tr.values.empty() && tr.values.back().coeffs().dot(l.rotation.coeffs()) < 0) {
        l.rotation.coeffs() = -l.rotation.coeffs();
      }
      tr.values.push_back(l.rotation);
    }
    if (plan.slides[j]) {
      const int sj = plan.source_of[j];
      l.translation += plan.slide_map[j] * (poses.src_locals[sj].translation - src.neutral_local[sj].translation);
      out.tracks[j].translation.values.push_back(l.translation);
    }
    if (j == plan.ground_root) {  // ancestors come first: the hips below see it
      const Vec3 travel(shift.x(), 0.0, shift.z());
      l.translation += pw.block<3, 3>(0, 0).inverse() * travel;
      out.tracks[j].translation.values.push_back(l.translation);
    }
    if (plan.move_hips && j == dst.hips) {
      // The pivot moves with the source pelvis; the joint hangs off it.
      const Quat turn = (pr * l.rotation * dst.bind_world_rotation[j].conjugate()).normalized();
      const Vec3 want = dst.hips_bind_position + plan.pivot + shift - turn * plan.pivot;
      const Eigen::Vector4d local = pw.inverse() * want.homogeneous();
      l.translation = local.head<3>();
      out.tracks[j].translation.values.push_back(l.translation);
    }
    poses.dst_rot[j] = (pr * l.rotation).normalized();
    poses.dst_world[j] = pw * l.matrix();
  }
  for (const Detached& d : plan.detached) {
    const int p = dst.parents[d.foot];
    const Mat4& pw = p < 0 ? dst.root_parent_world[d.foot] : poses.dst_world[p];
    Vec3 at = d.offset;
    if (d.src_foot >= 0 && d.src_shin >= 0) {
      const Vec3 src_now =
          (poses.src_world[d.src_shin].inverse() * position(poses.src_world[d.src_foot]).homogeneous()).head<3>();
      at += d.to_target * (src_now - d.src_offset);
    }
    const Vec3 want = (poses.dst_world[d.shin] * at.homogeneous()).head<3>();
    poses.dst_locals[d.foot].translation = (pw.inverse() * want.homogeneous()).head<3>();
    out.tracks[d.foot].translation.values.push_back(poses.dst_locals[d.foot].translation);
  }
}

}  // namespace

Clip retarget(const Character& source, const Clip& clip, const Calibration& src,
              const Calibration& dst, const Skeleton& target, double sample_rate, bool joints_by_name) {
  // No exceptions cross the library boundary: a mismatch gives an empty clip.
  if (source.skeleton.size() != src.size() || target.size() != dst.size() ||
      !(sample_rate > 0 && std::isfinite(sample_rate)))
    return Clip{};
  RetargetPlan plan;
  map_joints(src, dst, joints_by_name, plan);
  plan_rotations(src, dst, plan);
  plan_hips(src, dst, plan);
  plan.detached = detached_feet(src, dst, target, plan);
  plan_slides(src, dst, clip, plan);

  // Sample times: k / rate, the last one exactly at the duration.
  const std::vector<double> times = sample_times(clip.duration, sample_rate);
  Clip out = output_tracks(clip, dst, plan, times);
  SamplePoses poses{src.neutral_local, {}, std::vector<Quat>(dst.size()), {}, std::vector<Mat4>(dst.size()),
                    dst.neutral_local};
  for (double t : times) retarget_sample(src, dst, clip, plan, t, poses, out);
  return out;
}

}  // namespace rig
