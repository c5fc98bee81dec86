// The fused-tail search (internal to detect/): a tail grown out of the
// trunk's far skin, cut where it separates from it.
#pragma once

#include <vector>

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
//
// Issue 45 class 4 (beside_legs.h), on a body whose legs lie level (a
// flying pose): a `legs_aside` region (a sheet: the whole body's far skin)
// is searched on the distance to the bones other than the legs' alone, and a
// core cut beside a leg is searched again so (the tail trails along the
// legs). Elsewhere a sheet is not searched (its flaps pass as cores).
bool find_tail_core(const Analysis& a, const Context& x, const Region& r, Region& out, bool legs_aside = false);

// The component of {v in domain : distance[v] > level x H} (`distance` per
// welded vertex) holding `seed`, with its welded and mesh vertices in the
// domain's order and cut_level = level; empty when the seed is not above it.
Region core_at(const Analysis& a, const Region& domain, const std::vector<double>& distance, double level,
               int seed);

// Evaluates `core` as a region cut at its level; false when it fails to be a
// tail core (a round tail at least split_min_length x H long from its cut).
bool passes_as_tail_core(const Analysis& a, const Context& x, Region& core);

}  // namespace detect
