// Limbs that double another: a helper skeleton beside the real one.
//
// Some exporters leave a second set of leg joints (3ds Max's L_Femur /
// L_Tibia / L_Talus helpers, deformation or IK copies) hanging beside the
// real legs, each joint where a real leg's joint is. Read by shape and name
// they are two more legs: a biped clip read as four-legged, refused by every
// biped and given leg-for-leg to a quadruped's front legs (issue 45, class 6).
// A limb is a double when every one of its joints lies on another limb of
// the same side (within kDoubledFraction x H of that limb's bones): a
// quadruped's front and hind legs stand a body length apart, never on one
// another.
#pragma once

#include <vector>

#include "rig/model/model.h"

namespace rig {

inline constexpr double kDoubledFraction = 0.02;

struct LimbChain {
  std::vector<int> joints;  // root outwards, at least two
  double x_sign = 0;        // side of the centre line (+ or -)
  int trunk_size = 0;       // joints below the limb's attachment (its parent): the trunk it hangs from
  int skinned = 0;          // its joints that dominate skin (a character's; 0 for a clip source)
};

// Per chain: true when it doubles another chain that is kept. Of two chains
// that lie on each other the one whose joints carry skin is kept, then the
// one hanging from the bigger trunk (the real hips carry the spine; a helper
// pelvis only its helpers), then the one with more joints (a toe), then the
// earlier: chains that tie on all of these move alike, either serves.
std::vector<char> doubled_limbs(const Skeleton& sk, const std::vector<LimbChain>& chains, double H);

}  // namespace rig
