// The fused-tail search (internal to detect/): a tail grown out of the
// trunk's far skin, cut where it separates from it.
#pragma once

#include "detect/region.h"
#include "detect/region_evaluation.h"

namespace detect {

// Fused tails. Reading chosen: a tail grown out of a thick torso (the T-Rex's,
// a fused fox's) shares one far region with the torso's far skin (belly,
// back, flanks), whose centroid falls back onto the spine, so the whole fails
// the protrusion test. Torso skin lies at about the trunk's radius from its
// bones while a tail's skin keeps getting farther along the tail, so raising
// the far threshold within that region cuts the torso skin away first: the
// lowest threshold at which one component passes as a tail is where the tail
// separates from the trunk (the saddle). Sheets (a skirt's or cape's hem,
// which also break into flaps) and short bumps do not count: the core must
// be round (flatness as for worn items) and at least split_min_length x H
// long from its cut. Returns true with the core in `out` (evaluated).
//
// Reading chosen (issue 11): only the component holding the region's
// farthest vertex is tried. A tail is the part that sticks out farthest; a
// rump, a belly or a back bulges less, and trying components in vertex order
// grew a chain through a rat's rump while its long tail lay on the floor.
// Cores shrink as the level rises (a higher level's core lies inside a lower
// one's), so each level searches only the previous core, and the search ends
// once the core is too small (issue 14: 19 levels over a 158 k-vertex region
// rescanned it whole each time).
bool find_tail_core(const Analysis& a, const Context& x, const Region& r, Region& out);

}  // namespace detect
