// Rigid rewrite (SPEC §2): every vertex of a region weighted 1.0 to one joint.
#pragma once

#include <vector>

#include "rig/model/model.h"

namespace detect {

// Returns `in` where every vertex in `vertices` (original ids) has the single
// influence {joint, 1.0}; everything else unchanged. By value: pass an rvalue
// to rewrite without a copy.
rig::Character make_rigid(rig::Character in, const std::vector<int>& vertices, int joint);

}  // namespace detect
