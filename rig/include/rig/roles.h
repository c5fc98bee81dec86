// Body roles of skeleton joints, from names first, then from geometry.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rig {

enum class Side { kCenter, kLeft, kRight };

enum class BodyPart {
  kNone,  // not a body bone (tail, ear, prop, helper, finger, root...)
  kHips,
  kSpine,  // spine and chest
  kNeck,
  kHead,
  kShoulder,  // clavicle
  kUpperArm,
  kForearm,
  kHand,
  kThigh,
  kShin,
  kFoot,
  kToe,
};

struct Role {
  BodyPart part = BodyPart::kNone;
  Side side = Side::kCenter;
  // A quadruped's front leg (thigh/shin/foot/toe of a leg that reaches the
  // floor and attaches toward the chest). False for hind legs, bipeds' legs
  // and every other part.
  bool front = false;
  bool operator==(const Role&) const = default;
};

const char* part_name(BodyPart p);
// "hips", "left thigh", "none" ...
std::string role_name(Role r);

// Role from a bone name alone. Recognises Mixamo (`mixamorig:`, `mixamorig1:`,
// `mixamorig_`, no prefix), HumanIK (`Character1_`), Unreal (`pelvis`,
// `thigh_l`...), VRM (`J_Bip_C_Hips`, `leftUpperLeg`...), Rigify (`DEF-thigh.L`),
// Quaternius (`UpperLeg.L`) and BVH/CMU names. Matches whole name tokens, never
// substrings ("ForeArm" is not an ear).
Role role_from_name(std::string_view name);

struct Skeleton;
struct Mesh;
struct Skin;
// Fills skeleton.roles from the skeleton's shape and names together (Y up,
// bind pose):
// - limbs are lateral chains branching off the centre line; a limb whose
//   lowest point (joints, and the skin it dominates when a mesh is given)
//   reaches the floor is a leg, others are arms; a leg whose chain ends in
//   a leaf joint adopts a "detached" foot hanging elsewhere in the tree
//   (e.g. under the root, like an IK target) just below its end;
// - with two legs per side, the pair attached toward the head is the front
//   pair (Role::front);
// - the pelvis (kHips, exactly one) is the lowest common ancestor of the
//   hind legs and the head; the spine runs from it to the head;
// - names (`role_from_name`) pick which joint of a chain is the thigh or the
//   upper arm and give the side (a limb without a sided name takes the side
//   it lies on); a rig named from the viewer's side (two or more toes, all
//   pointing behind their feet the names' way) reads facing the other way,
//   each named side swapped; names never make a leg of a chain that does
//   not reach the floor, and helper/prop names (IK, pole, target, weapon,
//   tail, ear, fingers...) and their descendants never get a body role.
// Contract: every leg has exactly one kThigh joint; arms have kUpperArm.
// When the shape gives no legs, names alone decide (then a geometric
// fallback for meaningless names). All lengths relative to the model height.
void assign_roles(Skeleton& skeleton);
// Same, with the bind mesh and skin telling how low each limb's skin reaches.
void assign_roles(Skeleton& skeleton, const Mesh& mesh, const Skin& skin);

// Number of legs (joints with part kThigh).
int leg_count(const Skeleton& skeleton);

// True when a bone name marks a helper, prop or non-body appendage (IK,
// pole, target, control, weapon, prop, tail, ear, finger...): whole tokens.
bool is_non_body_name(std::string_view name);

// The joint whose role is hips (assign_roles keeps at most one), or -1.
int hips_joint(const Skeleton& skeleton);

}  // namespace rig
