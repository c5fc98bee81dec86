// Units of a character: glTF is metres, other formats declare or imply theirs.
#pragma once

#include "rig/model/model.h"

namespace rig {

// Rewrites every length of the character in metres (mesh positions, joint
// translations, bind and inverse bind translations, the nodes above the
// roots, clip translation keys and tangents), then meters_per_unit = 1.
// Rotations and scales are unchanged: the uniform unit scale S conjugates
// every transform (S M S^-1 scales only its translation), so skinning
// gives the same shape S times larger. No-op for a unit that is not a
// finite positive number.
void express_in_metres(Character& c);

}  // namespace rig
