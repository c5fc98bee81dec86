// The hind legs' haunch skin a split-off tail core let in (issue 45).
#pragma once

#include <vector>

#include "detect/geometry/segment_distance.h"
#include "rig/model/model.h"

namespace detect {

// Reading chosen (issue 45): a fused tail is cut from the trunk's far skin
// at a raised threshold, but a rump that bulges behind the hind legs (a
// Shiba's, a quadruped whose thighs run forward from the hip) lies as far
// from the bones as the tail's base, so the cut lets the haunches into the
// core: its chain then starts low between them and takes ~50 thigh
// vertices. Skin of the core farther from the tail's chain (`joints`,
// J0..JK) than `margin` x its distance to a leg bone (`legs`: thigh, shin,
// foot, toe and the joints between pelvis and thigh) is the leg's haunch,
// not tail. A margin above 1 leaves ties to the tail (a thick tail's base
// beside the thigh: the T-Rex's). Returns the ids of `region` (ascending,
// indices into `positions`) that stay.
std::vector<int> without_haunch_skin(const std::vector<rig::Vec3>& positions, const std::vector<int>& region,
                                     const std::vector<rig::Vec3>& joints, const std::vector<BoneSegment>& legs,
                                     double margin);

}  // namespace detect
