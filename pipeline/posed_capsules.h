// Colliders where a pose puts them (issue 46): a character's joint capsules
// (bind space) carried rigidly by their joints' skinning matrices into the
// solver's world-space capsules. One composition for the gate's
// tail_never_enters_legs scenario and the product's bake, so the gate measures the
// colliders users get.
#pragma once

#include <span>
#include <vector>

#include "rig/model/model.h"
#include "solver/colliders.h"

namespace pipeline {

// Appends `capsules` posed by the joint world matrices `world` (rig units,
// one per joint of `sk`) to `out`, in order. A capsule naming no joint of
// `sk` is skipped (the solver wants the same colliders every frame: callers
// pass the same list each frame).
void posed_capsules(const rig::Skeleton& sk, std::span<const rig::Mat4> world,
                    std::span<const rig::JointCapsule> capsules, std::vector<solver::Capsule>& out);

}  // namespace pipeline
