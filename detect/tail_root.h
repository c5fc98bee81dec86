// The root skin of a split-off tail (issue 11; find_appendages.cpp).
#pragma once

#include <vector>

#include "detect/geometry/components.h"
#include "detect/region.h"
#include "detect/geometry/segment_distance.h"
#include "rig/model/model.h"

namespace detect {

// Distance from `p` to the polyline `joints` (at least two points); `arc`
// receives the arc length along it of the nearest point.
double polyline_distance(const std::vector<rig::Vec3>& joints, const rig::Vec3& p, double* arc);

struct RootSkin {
  std::vector<int> welded;  // ascending welded ids to add to the tail
  std::vector<double> g;    // per entry: arc length along the chain of its nearest point
  double ring_radius = 0.0; // median distance of the cut ring to the chain
};

// How far the root skin may reach (Params::root_grow_*).
struct RootGrowth {
  double ring_arc = 0.0;     // arc along the chain of the cut ring (the root line's length)
  double margin = 0.75;      // up to ring_arc: nearer the chain than margin x its body bone
  double margin_past = 0.4;  // past the ring
  double radius = 1.25;      // and within radius x the ring's median distance to the chain
  // Skin a lower leg drives (`leg_driven`), up to ring_arc: nearer the chain
  // than leg_margin x its body bone, within leg_radius x the ring radius.
  double leg_margin = 1.0;
  double leg_radius = 2.5;
};

// Reading chosen: a tail split off at a raised far threshold keeps its base
// (the skin below the cut, fused with the rump or lying between the hind
// legs) on body bones, beside skin the chain drives, and tears there. That
// base is the skin a tail bone would take: nearer the chain than any body
// bone (by a margin < 1, so ties stay with the body) and no thicker than the
// tail at its cut (`radius` x the ring's median distance to the chain).
// `margin` applies up to `ring_arc` along the chain (the line from the root
// joint to the cut ring), `margin_past` beyond it.
// Reading chosen (issue 11): skin a lower leg (shin, foot, toe) drives there
// while it lies nearer the chain than any body bone, so nearer than that leg,
// is the humanoid rigger's fallback spilling past the tail onto the rump (a
// rat's rump back face on its shins) and tears with every stride; on the
// root line it joins by leg_margin and leg_radius (the rump is thicker than
// the tail's cut); past the ring, only as the base does. Skin on the pelvis
// or the trunk there moves with the body, and a thigh rightly drives the
// buttocks beside a tail's root: they stay. Grown over `graph` from the
// region's vertices through vertices marked in `allowed`; `leg_driven` (per
// vertex, or empty) marks the skin a lower leg drives; `body` are the body's
// bone segments.
RootSkin tail_root_skin(const Graph& graph, const std::vector<rig::Vec3>& positions,
                        const std::vector<int>& region, const std::vector<int>& ring,
                        const std::vector<char>& allowed, const std::vector<char>& leg_driven,
                        const std::vector<rig::Vec3>& joints, const std::vector<BoneSegment>& body,
                        const RootGrowth& growth);

// `segments` with each shin that ends in an end extension but whose foot
// hangs elsewhere in the tree (an IK rig's, under the root) running to that
// foot instead: the extension, along the thigh, stands in for no real bone
// and reaches back toward the rump (the Rat's); the shin runs knee to
// ankle. The foot: the nearest joint read as a foot (`roles`, per joint) of
// the shin's side and end (front or hind) that does not hang below it.
std::vector<BoneSegment> shins_to_their_feet(const rig::Skeleton& sk, const std::vector<rig::Role>& roles,
                                             std::vector<BoneSegment> segments);

// Adds that base to the split-off tail `r` (after its joints are placed):
// from the body's remainder or from no region, never from an appendage that
// is rewritten; g (`gw`, per welded vertex) of an added vertex is its place
// along the chain. The regions it leaves lose it from their vertex lists.
// The body's bones: `segments` less the root joint's end extension, and a
// shin whose foot hangs elsewhere (an IK rig's) running to that foot, not
// along its extension (the thigh's direction, back toward the rump).
void add_tail_root_skin(Analysis& a, const rig::Character& c, const Params& p,
                        const std::vector<BoneSegment>& segments, Region& r, std::vector<double>& gw);

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
