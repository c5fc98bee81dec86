// The `appendages` report (SPEC §1.8, issue 5) as JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "detect/region.h"

namespace detect {

// {"H": metres, "meters_per_unit": ..., "appendages": [ {id, class, action,
// attachment, attachment_role, vertex_count, welded_vertex_count, reach,
// elongation, centroid_ratio, length, bones, joints, bone_distance_before,
// bone_distance_after}, ... ]}. Lengths (H, reach, length, joints, bone
// distances) are in metres: bind units x character.meters_per_unit.
// Elongation/flatness that are infinite are written as null.
nlohmann::json appendage_report(const rig::Character& character, const Analysis& analysis);

}  // namespace detect
