#pragma once
// The target's side of a clip transfer, prepared once per character: its
// floor, soles, arm, elbow and tail skins, the whole body's support
// (prepare_target_support in clip_transfer.h builds it here).

#include "rig/retarget/clip_transfer.h"

namespace rig {

// Every index `prepared` holds is inside `target` (a support prepared for
// another character must never index past this one's mesh or skeleton).
bool support_fits(const TargetSupport& prepared, const Character& target);

}  // namespace rig
