// Rigid rewrite (SPEC §2): every vertex of a region weighted 1.0 to one joint.
#pragma once

#include <vector>

#include "rig/model.h"

namespace detect {

// Returns a copy of `in` where every vertex in `vertices` (original ids) has
// the single influence {joint, 1.0}; everything else is copied unchanged.
rig::Character make_rigid(const rig::Character& in, const std::vector<int>& vertices, int joint);

}  // namespace detect
