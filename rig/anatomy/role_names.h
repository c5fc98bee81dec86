// Reading a body role from a bone's name alone. Recognises the usual rig
// families by whole name tokens (rig/anatomy/name_tokens.h), never by
// substring; names help read a body, the skeleton's shape decides too
// (rig/anatomy/roles.h).
#pragma once

#include <string_view>

#include "rig/model/role.h"

namespace rig {

// Role from a bone name alone. Recognises Mixamo (`mixamorig:`, `mixamorig1:`,
// `mixamorig_`, no prefix), HumanIK (`Character1_`), Unreal (`pelvis`,
// `thigh_l`...), VRM (`J_Bip_C_Hips`, `leftUpperLeg`...), Rigify (`DEF-thigh.L`),
// Quaternius (`UpperLeg.L`) and BVH/CMU names. Matches whole name tokens, never
// substrings ("ForeArm" is not an ear).
Role role_from_name(std::string_view name);

// True when a bone name marks a helper, prop or non-body appendage (IK,
// pole, target, control, weapon, prop, tail, ear, finger...): whole tokens.
bool is_non_body_name(std::string_view name);

// A rig-control name (IK, ctrl, control, MCH) and no other helper word:
// "IKBackLeg.L" yes, "IKPole.L", "Weapon_ctrl" no.
bool is_control_name(std::string_view name);

// role_from_name, its side swapped when `mirror`.
Role role_from_name_sided(std::string_view name, bool mirror);

}  // namespace rig
