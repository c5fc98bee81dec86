// The hind legs' haunch skin a split-off tail core let in (issue 45).
#pragma once

#include <vector>

#include "detect/geometry/segment_distance.h"
#include "rig/model/model.h"

namespace detect {

// Reading chosen (issue 45): a fused tail is cut from the trunk's far skin
// at a raised threshold, but a rump that bulges behind the hind legs (a
// Shiba's, a quadruped whose thighs run forward from the hip) lies as far
// from the bones as the tail's base, so the cut lets the haunches into the
// core: its chain then starts low between them and takes ~50 thigh
// vertices. Skin of the core farther from the tail's chain (`joints`,
// J0..JK) than `margin` x its distance to a leg bone (`legs`: thigh, shin,
// foot, toe and the joints between pelvis and thigh) is the leg's haunch,
// not tail. A margin above 1 leaves ties to the tail (a thick tail's base
// beside the thigh: the T-Rex's). Returns the ids of `region` (ascending,
// indices into `positions`) that stay.
std::vector<int> without_haunch_skin(const std::vector<rig::Vec3>& positions, const std::vector<int>& region,
                                     const std::vector<rig::Vec3>& joints, const std::vector<BoneSegment>& legs,
                                     double margin);

// Where the tail's seam meets the haunches (issue 45 class 10): how far
// from the chain, relative to the nearest leg bone, its skin may lie and
// still be the tail's alone, and where it is the leg's alone
// (Params::seam_tail_alone, seam_leg_alone).
struct HaunchSeam {
  double tail_alone = 1.0;  // nearer the chain than this x its leg bone: the tail's
  double leg_alone = 1.2;   // this x or farther: the leg's
  double band = 0.0;        // along the chain: up to this arc (the ring's, plus a segment); past it the tail's
};

// Reading chosen (issue 45 class 10): where a tail's root meets the haunches
// (any quadruped's, and a biped's whose tail leaves between its thighs) the
// far-skin cut and the root growth take rump skin that lies nearer a leg
// bone than the tail: an artist gives it to the legs (tail share 0.1 in the
// Wolf's, Shiba's and Apatosaurus' rigs). Given to the chain whole, it tears
// from the haunch skin beside it with every stride (a Shiba's rump edges
// between Tail_2 and BackUpperLeg skin 8.7x, body p99 1.35 -> 1.58). So the
// chain's share of a region vertex at `position` is 1 up to
// seam.tail_alone x its distance to the nearest leg bone (`legs`), 0 from
// seam.leg_alone x, linear between; past seam.band along the chain
// (`joints`, J0..JK) the tail is free of the haunches and keeps it whole.
// The rest of its weight stays on the bones it was rigged to
// (share_seam_with_body). The vertex stays in the region: no leg capsule is
// fitted to it (rig/anatomy/leg_capsules.h; rump skin in a thigh's capsule
// made it fat and the Rat's jump deeper).
double seam_chain_share(const rig::Vec3& position, const std::vector<rig::Vec3>& joints,
                        const std::vector<BoneSegment>& legs, const HaunchSeam& seam);

// Blends each of `vertices` (original ids) of `c` whose `share` (per entry)
// is below 1: share x its chain weights (as written now) + (1 - share) x
// `before` (per entry: its influences before the chain was written). Zero
// weights are omitted, so a share of 0 leaves the weights as they were.
// Returns how many vertices were blended.
int share_seam_with_body(rig::Character& c, const std::vector<int>& vertices, const std::vector<double>& share,
                         const std::vector<std::vector<rig::Influence>>& before);

}  // namespace detect
