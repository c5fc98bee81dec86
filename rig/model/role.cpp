#include "rig/model/role.h"

namespace rig {

const char* part_name(BodyPart p) {
  switch (p) {
    case BodyPart::kNone: return "none";
    case BodyPart::kHips: return "hips";
    case BodyPart::kSpine: return "spine";
    case BodyPart::kNeck: return "neck";
    case BodyPart::kHead: return "head";
    case BodyPart::kShoulder: return "shoulder";
    case BodyPart::kUpperArm: return "upper_arm";
    case BodyPart::kForearm: return "forearm";
    case BodyPart::kHand: return "hand";
    case BodyPart::kThigh: return "thigh";
    case BodyPart::kShin: return "shin";
    case BodyPart::kFoot: return "foot";
    case BodyPart::kToe: return "toe";
  }
  return "none";
}

std::string role_name(Role r) {
  if (r.part == BodyPart::kNone) return "none";
  std::string side = r.side == Side::kLeft ? "left " : r.side == Side::kRight ? "right " : "";
  return side + part_name(r.part);
}

}  // namespace rig
