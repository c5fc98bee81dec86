// Evaluating a region of far skin (internal to detect/): where it attaches,
// how far it sticks out, its shape, its class and why, and the do-no-harm
// rule. Shared by find_appendages and the fused-tail search (tail_core.h).
#pragma once

#include <vector>

#include "detect/body.h"
#include "detect/region.h"
#include "detect/geometry/segment_distance.h"
#include "rig/model/model.h"

namespace detect {

// What evaluating a region needs from the character and the run.
struct Context {
  const rig::Character& c;
  const rig::Skeleton& sk;
  const std::vector<char>& deforming;
  const std::vector<BoneSegment>& segments;
  const Params& params;
  const BodyReading& body;
};

// Where a tail leaves the body (curled_tail.h): the hind thighs' joints'
// midpoint (BodyReading::hip_mid), else the pelvis joint (a.hips).
rig::Vec3 tail_leaves_at(const Analysis& a, const rig::Skeleton& sk);

// Ring, centroid and attachment joint of a region (welded ids in r.welded).
void attach(const Analysis& a, const rig::Skeleton& sk, const std::vector<char>& deforming,
            const Params& params, Region& r);

// The pelvis-zone joint nearest `p`: where a tail rooted at `p` starts
// (Quaternius' `Back` beside `Body`, the pelvis the chain hangs from); the
// rig's pelvis when the zone is empty.
int chain_root(const Context& x, const rig::Vec3& p);

// How far a region (welded ids) sticks out, classify's protrusion: its reach
// (the farthest skeleton distance), its centroid's skeleton distance, and
// their ratio.
struct Protrusion {
  double reach = 0.0, centroid_distance = 0.0, centroid_ratio = 0.0;
};
Protrusion protrusion_of(const Analysis& a, const Context& x, const std::vector<int>& welded,
                         const rig::Vec3& centroid);

// The welded positions of `welded` ids, in order.
std::vector<rig::Vec3> positions_of(const Analysis& a, const std::vector<int>& welded);

// Attachment, reach, shape, classification, reason and do-no-harm action of
// a region whose `welded` (and `vertices`) ids are set.
void evaluate(const Analysis& a, const Context& x, Region& r);

}  // namespace detect
