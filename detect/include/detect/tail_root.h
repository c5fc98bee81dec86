// The root skin of a split-off tail (issue 11; find_appendages.cpp).
#pragma once

#include <vector>

#include "detect/components.h"
#include "detect/find_appendages.h"
#include "detect/segment_distance.h"
#include "rig/model.h"

namespace detect {

// Distance from `p` to the polyline `joints` (at least two points); `arc`
// receives the arc length along it of the nearest point.
double polyline_distance(const std::vector<rig::Vec3>& joints, const rig::Vec3& p, double* arc);

struct RootSkin {
  std::vector<int> welded;  // ascending welded ids to add to the tail
  std::vector<double> g;    // per entry: arc length along the chain of its nearest point
  double ring_radius = 0.0; // median distance of the cut ring to the chain
};

// Reading chosen: a tail split off at a raised far threshold keeps its base
// (the skin below the cut, fused with the rump or lying between the hind
// legs) on body bones, beside skin the chain drives, and tears there. That
// base is the skin a tail bone would take: nearer the chain than any body
// bone (by a margin < 1, so ties stay with the body) and no thicker than the
// tail at its cut (`radius` x the ring's median distance to the chain).
// `margin` applies up to `ring_arc` along the chain (the line from the root
// joint to the cut ring), `margin_past` beyond it. Grown over `graph` from
// the region's vertices through vertices marked in `allowed`; `body` are the
// body's bone segments.
RootSkin tail_root_skin(const Graph& graph, const std::vector<rig::Vec3>& positions,
                        const std::vector<int>& region, const std::vector<int>& ring,
                        const std::vector<char>& allowed, const std::vector<rig::Vec3>& joints,
                        const std::vector<BoneSegment>& body, double ring_arc, double margin,
                        double margin_past, double radius);

// Adds that base to the split-off tail `r` (after its joints are placed):
// from the body's remainder or from no region, never from an appendage that
// is rewritten; g (`gw`, per welded vertex) of an added vertex is its place
// along the chain. The regions it leaves lose it from their vertex lists.
void add_tail_root_skin(Analysis& a, const Params& p, const std::vector<BoneSegment>& segments, Region& r,
                        std::vector<double>& gw);

// Reading chosen (issue 12): the chain of a split-off tail starts at a joint
// inside the body; when its cut ring lies past the first joint, the first
// bone drives no skin, and its swing moves the ring's skin on a lever of
// root_offset against the body skin beside it (a low-poly edge spans the
// whole first segment): the seam tears. There, skin from the root to the
// ring keeps up to half its weight on the chain's parent (what the SPEC's
// blend gives the ring of a tail that starts at its ring), falling to zero
// over root_hold_band x a segment past the ring, and never so much that the
// parent outweighs the chain's largest weight (the tail keeps its skin).
// Only when the parent is the bone driving most of the body skin beside it.
// Says so in r.reason.
void hold_root_on_parent(rig::Character& c, const Analysis& a, Region& r, const Params& p);

}  // namespace detect
