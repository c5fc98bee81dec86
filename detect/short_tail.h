// A short tail on shells of its own (issue 45, class 3).
#pragma once

#include "detect/region.h"

namespace detect {

// Reading chosen (issue 45 class 3): a short tail (a camelid's, 4-7 % of H;
// ClassifyParams::min_short_reach) is mostly near skin: only its tip lies
// farther than far_fraction x H from the bones, so its far region is half
// the tail, and a chain driving that half left the rest on the legs and
// tore between them (iou 0.52, tail p99 3.23 against the rigger's 1.96). On
// shells of its own the whole appendage is known: every vertex of the
// shells the region lies on joins it (none another region holds), with
// every shell of no region whose box lies mostly inside theirs (the skin
// under a tail's fur, all of it near the bones), and its
// chain starts where those shells are deepest in the body, the vertices
// within root_band x H of each shell's least skeleton distance (where g
// counts from, find_appendages.cpp geodesic_from_root): r.ring_centroid
// moves there. Asked only of a region on shells apart from the body's
// (r.on_body false); returns the number of welded vertices added.
int take_whole_shells(Analysis& a, const Params& params, Region& r);

// The band above a separate-shell tail's deepest skin where g counts from
// (Params::root_band x H). Issue 45 class 3: a short tail's band is
// root_band x its reach instead: 0.01 H is a sixth of a tail 6 % of H
// long, all of it at g = 0, its weights tied between the pelvis and Tail_1
// (the pelvis won: 264 of 1543 tail vertices), and L measured from its end
// (0.87 of the tail).
double root_band(const Region& r, const Params& params, double height);

}  // namespace detect
