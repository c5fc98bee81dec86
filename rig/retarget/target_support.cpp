#include "rig/retarget/target_support.h"

#include <limits>

#include "rig/anatomy/figures.h"
#include "rig/model/weld.h"

namespace rig {
namespace {

constexpr double kWeldFraction = 1e-4;  // x H: vertices this close are one (as detect welds)

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }

// S for the whole-body grounding pass: every vertex of every joint (tail
// and props as grounding takes them), and a leg's whole skin (thigh, shin,
// foot, toe) in E while its foot is in contact: before the feet are pinned
// a stance leg's skin is the limb solver's, which bends and places it (a
// retargeted quadruped's shin dips under the floor until its foot is
// pinned); the last pass after the pinning counts it.
SupportPoints whole_body_support(const Character& target, const SkinGroups& groups, GroundingOptions g) {
  g.points_per_joint = std::numeric_limits<int>::max();
  SupportPoints s = sample_support(target, groups, g);
  const Skeleton& sk = target.skeleton;
  std::vector<int> leg_of(static_cast<size_t>(sk.size()), -1);
  const std::vector<Leg> legs = find_legs(sk);
  for (size_t li = 0; li < legs.size(); ++li)
    for (int j : {legs[li].thigh, legs[li].shin, legs[li].foot, legs[li].toe})
      if (j >= 0 && j < sk.size()) leg_of[static_cast<size_t>(j)] = static_cast<int>(li);
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    const int d = s.dominant[i];
    if (s.tail[i] || d < 0 || d >= sk.size() || leg_of[static_cast<size_t>(d)] < 0) continue;
    s.contact[i] = true;
    s.leg[i] = leg_of[static_cast<size_t>(d)];
  }
  return s;
}

}  // namespace

double reference_floor(const Character& ch, const GroundingOptions& opt) {
  return reference_floor(ch, ch.has_skin() ? sample_support(ch, opt) : SupportPoints{}, opt);
}

double reference_floor(const Character& ch, const SupportPoints& s, const GroundingOptions& opt) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double floor = kInf;
  if (ch.has_skin()) {
    for (size_t i = 0; i < s.vertices.size(); ++i) {
      if (s.tail[i] && !opt.count_tail) continue;
      floor = std::min(floor, ch.mesh.positions[s.vertices[i]].y());
    }
    if (floor < kInf) return floor;
  }
  const Skeleton& sk = ch.skeleton;
  for (int j = 0; j < sk.size() && j < static_cast<int>(sk.roles.size()); ++j)
    if (sk.roles[j].part == BodyPart::kFoot || sk.roles[j].part == BodyPart::kToe)
      floor = std::min(floor, position(sk.bind_world[j]).y());
  if (floor < kInf) return floor;
  for (int j = 0; j < sk.size(); ++j) floor = std::min(floor, position(sk.bind_world[j]).y());
  return floor < kInf ? floor : 0.0;
}

bool support_fits(const TargetSupport& prepared, const Character& target) {
  const int joints = target.skeleton.size();
  const int nv = std::min(target.mesh.vertex_count(), static_cast<int>(target.skin.influences.size()));
  if (prepared.groups.start.size() != (target.has_skin() ? static_cast<size_t>(joints) + 1 : 0)) return false;
  if (prepared.soles.size() != find_legs(target.skeleton).size()) return false;
  for (int v : prepared.support.vertices)
    if (v < 0 || v >= nv) return false;
  for (const std::vector<SolePoint>& leg : prepared.soles)
    for (const SolePoint& p : leg) {
      if (p.joint < 0 || p.joint >= joints) return false;
      for (const Influence& in : p.influences)
        if (in.joint < 0 || in.joint >= joints) return false;
    }
  for (const ArmSkin& a : prepared.arms) {
    if (a.upper_arm < 0 || a.upper_arm >= joints || a.other_upper_arm >= joints) return false;
    for (int v : a.vertices)
      if (v < 0 || v >= nv) return false;
  }
  for (const TailSkin& t : prepared.tails) {
    if (t.root < 0 || t.root >= joints || t.tip < 0 || t.tip >= joints) return false;
    for (int v : t.vertices)
      if (v < 0 || v >= nv) return false;
  }
  for (const std::vector<int>* vs : {&prepared.body, &prepared.whole_body.vertices})
    for (int v : *vs)
      if (v < 0 || v >= nv) return false;
  // The indexes are of those lists (a support assembled by hand must index them).
  if (prepared.body_index.vertices != prepared.body || prepared.whole_body_index.vertices != prepared.whole_body.vertices)
    return false;
  return true;
}

bool support_serves(const GroundingOptions& a, const GroundingOptions& b) {
  return a.points_per_joint == b.points_per_joint && a.foot_extremes == b.foot_extremes &&
         a.contact_shin_fraction == b.contact_shin_fraction && a.tail_joints == b.tail_joints &&
         a.tail_vertices == b.tail_vertices;
}

TargetSupport prepare_target_support(const Character& target, const Calibration& target_cal,
                                     const TransferOptions& opt) {
  TargetSupport t;
  // The floor the feet are aligned and pinned to is the body's (tail
  // excluded) in every run: count_tail only switches grounding's own minima,
  // so a tail-counted run differs from a tail-excluded one by the tail's
  // effect on the lift alone. count_tail does not change S itself.
  GroundingOptions body_floor = opt.grounding;
  body_floor.count_tail = false;
  if (target.has_skin()) {
    t.groups = group_by_dominant_joint(target);
    t.support = sample_support(target, t.groups, body_floor);
  }
  t.floor_y = reference_floor(target, t.support, body_floor);
  // What the arm carries (a sword under the hand) stays out of the floor
  // with it: the Bunny's and demon's weapons went 0.4-0.55 m under it.
  if ((opt.arms_above_floor || opt.elbows_within_skin) && target.has_skin()) t.arms = arm_skins(target, {});
  if (opt.elbows_within_skin) t.elbows = elbow_skins(target, t.arms);
  if (opt.tails_above_floor && target.has_skin()) t.tails = tail_skins(target);
  // The whole body against the floor (measured on every clip; lifted by
  // body_above_floor): grounding's T and carried objects left out, the
  // carried ones welded as detect welds (1e-4 x H).
  if (target.has_skin()) {
    t.height = model_height(target.mesh.positions);
    t.body = body_floor_vertices(target, opt.grounding, kWeldFraction * t.height);
    if (opt.body_above_floor) t.whole_body = whole_body_support(target, t.groups, opt.grounding);
    t.body_index = index_lowest_skin(target, t.body);
    t.whole_body_index = index_lowest_skin(target, t.whole_body.vertices);
  }
  t.several_characters = several_figures_reason(target.skeleton, skinned_figures(target, target_cal.roles));
  for (const Leg& leg : find_legs(target.skeleton))
    t.soles.push_back(target.has_skin() ? mesh_sole_points(target, t.groups, leg, t.floor_y,
                                                           opt.sole_band * target_cal.leg_length,
                                                           opt.sole_points_per_joint,
                                                           opt.grounding.contact_shin_fraction)
                                        : joint_sole_points(target.skeleton, leg, t.floor_y));
  return t;
}

}  // namespace rig
