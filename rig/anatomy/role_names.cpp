// Roles from bone names alone: token matching (rig/anatomy/name_tokens.h),
// never substrings.
#include "rig/anatomy/role_names.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "rig/anatomy/name_tokens.h"

namespace rig {
namespace {

// Strips namespaces/prefixes: "mixamorig:LeftArm" -> "LeftArm",
// "Character1_LeftArm" -> "LeftArm", "DEF-thigh.L" -> "thigh.L",
// "J_Bip_C_Hips" -> "C_Hips", "Armature|Hips" -> "Hips",
// "CC_Base_L_Thigh" -> "L_Thigh" (Character Creator).
std::string strip_prefix(std::string_view name) {
  std::string s(name);
  for (char sep : {':', '|'}) {
    auto p = s.rfind(sep);
    if (p != std::string::npos) s = s.substr(p + 1);
  }
  for (std::string_view pre : {"mixamorig1_", "mixamorig_", "mixamorig", "Character1_", "DEF-", "ORG-",
                               "J_Bip_", "Bip01_", "Bip01 ", "bip_", "CC_Base_", "b_"}) {
    if (s.size() > pre.size() && lowercase(s.substr(0, pre.size())) == lowercase(pre)) {
      s = s.substr(pre.size());
      break;
    }
  }
  return s;
}

bool has(const std::vector<std::string>& t, std::string_view w) {
  return std::find(t.begin(), t.end(), w) != t.end();
}

// Words that mark helpers, fingers, props, or non-body appendages.
bool has_stop_word(const std::vector<std::string>& w) {
  for (std::string_view stop : {"tail", "ear", "ears", "ik", "pole", "target", "end", "site", "nub",
                                "thumb", "index", "middle", "ring", "pinky", "little", "finger",
                                "twist", "roll", "eye", "jaw", "wing", "hair", "tongue", "teeth",
                                "weapon", "prop", "ctrl", "control", "mch", "rigmesh", "breast",
                                "skirt", "cape", "cloth", "bust", "sleeve", "sword", "shield", "bow",
                                "gun", "helper", "socket", "attach"}) {
    if (has(w, stop)) return true;
  }
  return false;
}

}  // namespace

bool is_non_body_name(std::string_view name) { return has_stop_word(name_tokens(strip_prefix(name))); }

bool is_control_name(std::string_view name) {
  std::vector<std::string> w = name_tokens(strip_prefix(name));
  bool control = false;
  std::erase_if(w, [&](const std::string& t) {
    const bool c = t == "ik" || t == "ctrl" || t == "control" || t == "mch";
    control |= c;
    return c;
  });
  return control && !has_stop_word(w);
}

Role role_from_name(std::string_view name) {
  const std::string base = strip_prefix(name);
  std::vector<std::string> t = name_tokens(base);
  if (t.empty()) return {};
  Role r;
  // Side: a token, or a one-letter suffix (.L, _l, _R), or a leading L/R
  // letter token as in "LThigh"/"L_Thigh"/"LHipJoint".
  std::vector<std::string> w;
  int first_number = -1;  // "Leg01" / "Leg02" in chains numbered per segment
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& tok = t[i];
    if (i == 0 && tok == "m" && t.size() > 1) continue;  // Second Life's mPelvis, mKneeLeft
    if (std::isdigit(static_cast<unsigned char>(tok[0]))) {
      if (first_number < 0) first_number = std::stoi(tok.substr(0, 6));
      continue;
    }
    if (tok == "c" || tok == "center" || tok == "mid") continue;  // VRM J_Bip_C_*
    if (tok == "left" || tok == "l" || tok == "lf") {
      r.side = Side::kLeft;
    } else if (tok == "right" || tok == "r" || tok == "rt") {
      r.side = Side::kRight;
    } else {
      w.push_back(tok);
    }
  }
  if (has_stop_word(w)) return {};
  auto set = [&](BodyPart p) {
    r.part = p;
    if (p == BodyPart::kHips || p == BodyPart::kSpine || p == BodyPart::kNeck || p == BodyPart::kHead)
      r.side = Side::kCenter;
    return r;
  };
  const bool sided = r.side != Side::kCenter;
  if (w.size() == 1 && (w[0] == "hips" || w[0] == "hip" || w[0] == "pelvis")) {
    if (!sided) return set(BodyPart::kHips);
  }
  if (w == std::vector<std::string>{"root"} || w.empty()) return {};
  // Legs.
  if (has(w, "thigh") || (has(w, "up") && has(w, "leg")) || (has(w, "upper") && has(w, "leg")) ||
      (has(w, "hip") && sided && !has(w, "joint")) || w == std::vector<std::string>{"femur"} ||
      (has(w, "upperleg") && first_number <= 1))
    return sided ? set(BodyPart::kThigh) : Role{};
  if (w == std::vector<std::string>{"leg"} && first_number == 1) return sided ? set(BodyPart::kThigh) : Role{};
  if (w == std::vector<std::string>{"foot"} && first_number == 2) return sided ? set(BodyPart::kToe) : Role{};
  if (has(w, "shin") || has(w, "calf") || (has(w, "lower") && has(w, "leg")) ||
      (has(w, "low") && has(w, "leg")) || has(w, "knee") || (has(w, "lowerleg") && first_number <= 1) ||
      (w == std::vector<std::string>{"leg"}))
    return sided ? set(BodyPart::kShin) : Role{};
  if (has(w, "foot") || has(w, "ankle")) return sided ? set(BodyPart::kFoot) : Role{};
  if (has(w, "toe") || has(w, "toes") || has(w, "ball")) return sided ? set(BodyPart::kToe) : Role{};
  // Arms.
  if (has(w, "shoulder") || has(w, "clavicle") || has(w, "collar"))
    return sided ? set(BodyPart::kShoulder) : Role{};
  if (has(w, "forearm") || (has(w, "fore") && has(w, "arm")) || has(w, "lowerarm") || (has(w, "lower") && has(w, "arm")) ||
      (has(w, "low") && has(w, "arm")) || has(w, "elbow"))
    return sided ? set(BodyPart::kForearm) : Role{};
  if (has(w, "hand") || has(w, "wrist")) return sided ? set(BodyPart::kHand) : Role{};
  if (has(w, "arm") || has(w, "upperarm") || has(w, "humerus") || has(w, "shldr"))  // Daz lShldrBend
    return sided ? set(BodyPart::kUpperArm) : Role{};
  if (sided) return {};
  // Trunk.
  if (has(w, "spine") || has(w, "chest") || has(w, "abdomen") || has(w, "torso") ||
      has(w, "back") || has(w, "body") || has(w, "waist") || has(w, "stomach"))
    return set(BodyPart::kSpine);
  if (has(w, "neck")) return set(BodyPart::kNeck);
  if (has(w, "head")) return set(BodyPart::kHead);
  return {};
}

Role role_from_name_sided(std::string_view name, bool mirror) {
  Role r = role_from_name(name);
  if (mirror && r.side != Side::kCenter) r.side = r.side == Side::kLeft ? Side::kRight : Side::kLeft;
  return r;
}

}  // namespace rig
