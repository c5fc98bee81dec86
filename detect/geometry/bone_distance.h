// Weighted bone distance (SPEC §7): per vertex, the weight-averaged distance
// to the bones that move it. Fox: 47 cm before the chain, 17 cm after.
#pragma once

#include <vector>

#include "detect/geometry/segment_distance.h"
#include "rig/model/model.h"

namespace detect {

// The bone of each joint (index = skeleton index): the segments from the joint
// to each of its children; a joint without children gets an extension of
// `end_extension` x its incoming bone (SPEC §11), a lone root a point.
std::vector<std::vector<BoneSegment>> bones_by_joint(const rig::Skeleton& skeleton,
                                                     double end_extension = 0.5);

// Σ w_j d(p, bone_j) / Σ w_j over the influences (0 when there are none),
// in bind units.
double weighted_bone_distance(const rig::Vec3& p, const std::vector<rig::Influence>& influences,
                              const std::vector<std::vector<BoneSegment>>& bones);

// Mean weighted bone distance over `vertices` (original ids), in bind units
// (multiply by meters_per_unit for metres). 0 for an empty list.
double mean_bone_distance(const rig::Character& c, const std::vector<int>& vertices);

}  // namespace detect
