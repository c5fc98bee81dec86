// A tail lying along the legs (issue 45 class 4; internal to detect/).
#pragma once

#include "detect/region.h"
#include "detect/region_evaluation.h"

namespace detect {

// Reading chosen (issue 45 class 4): a creature rigged in a flying pose lies
// level, so H (the bind pose's height) is its depth, a third of its length:
// its whole skin is far skin, one region holding trunk, legs and tail, and
// with its limbs spread that region is flat, a sheet ("hair"). Its tail,
// held straight back between the trailing legs, runs beside the thighs,
// shins and feet, so its skin's skeleton distance is its distance to the
// leg bones, not to the pelvis it hangs from: raising the far threshold
// (tail_core.h) separates only a band of the tail's bushy middle, or cuts it
// beside the knees. With its legs lying level (rig::legs_lie_level), such a sheet,
// and a core cut beside a leg, are therefore searched with the legs set aside:
// over the region's shells (the region and the skin of no other region),
// the distance to the bones that are no leg bone (pelvis, spine, arms,
// head) stands for the skeleton distance; along the tail it keeps growing
// from the pelvis as a tail's does, and the legs, far from those bones too,
// part from it where it leaves the rump. The lowest level at which the
// component holding `seed` passes as a tail core (tail_core.h, evaluated
// against the whole skeleton: hung from the pelvis, protruding, long,
// round) is where the tail leaves the body; cut split_margin x H higher when
// it still passes there. True with the core in `out` (its cut_level in
// that distance). A sheet's flaps (wings, capes, long hair) hang from no
// pelvis or are flat, and pass as no tail core.
bool find_tail_beside_legs(const Analysis& a, const Context& x, const Region& region, int seed,
                           Region& out);

// True when a core's cut ring lies nearest a leg bone (thigh to toe): the
// tail runs on along the legs from there, and (legs lying level) is searched
// with them set aside.
bool cut_beside_a_leg(const Context& x, const Region& core);

}  // namespace detect
