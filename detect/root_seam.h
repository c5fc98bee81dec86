// How much of a split-off tail's root skin the chain takes (issues 45, 46).
#pragma once

#include <vector>

#include "detect/geometry/segment_distance.h"
#include "detect/region.h"
#include "detect/region_evaluation.h"

namespace detect {

// The bones of the legs (haunch_skin.h): thigh to toe and the joints
// between the pelvis and a thigh; a shin whose foot hangs elsewhere runs to
// it (tail_root.h).
std::vector<BoneSegment> leg_segments(const Context& ctx, const Analysis& a);

// r.seam_share: the chain's share of each of r.vertices where a split-off
// tail's root meets the body, the rest staying on the bones the skin was
// rigged to (share_seam_with_body, haunch_skin.h); left empty when every
// share is 1. Two readings, the smaller share wins:
// - the haunch seam (haunch_skin.h seam_chain_share), up to a segment past
//   the cut ring: skin nearer a leg bone than the chain;
// - the rump (Params::leg_spill_reach): root skin a lower leg drives
//   (r.leg_spill) farther from the chain than leg_spill_reach x the ring
//   radius takes that reach / its distance.
// Says what it shared in r.reason.
void share_root_seam(const Context& ctx, const Analysis& a, Region& r);

}  // namespace detect
