// A joint's body role as a type: which part of the body it is (pelvis/hips,
// spine, neck, head, shoulder, upper arm, forearm, hand, thigh, shin, foot,
// toe, or none), its side, and whether a leg is a quadruped's front leg.
// Assigned by rig/anatomy/roles.h.
#pragma once

#include <string>

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

}  // namespace rig
