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
// Fills skeleton.roles: names first; when names give no hips, infers roles
// from the bind geometry and topology (Y up assumed; falls back silently).
void assign_roles(Skeleton& skeleton);

// The joint whose role is hips (assign_roles keeps at most one), or -1.
int hips_joint(const Skeleton& skeleton);

}  // namespace rig
