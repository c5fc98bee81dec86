// What the bake steps a tail with and measures it against (issue 46): the
// character's leg colliders (the ones it carries, else fitted to its leg
// skin), the clearance each link keeps from them, and how deep the baked
// tail's skin goes into them.
//
// Margin: ChainParams::collider_margin is the clearance between a link's
// centreline and a collider's surface, so the clearance that keeps the
// tail's skin out of a leg is the tail's own thickness. A fixed margin in
// metres cannot be right for characters from 0.3 m to 10 m tall, and the
// height is no better (a rat's tail is a string, a fox's a brush): the
// margin is the tail skin's radius at its root (the median distance of the
// skin its first bone dominates from that bone), the thickest part of the
// tail and the part nearest the legs. Measured on the fox fixture's sprint
// baked at 30 keys/s: the root radius (0.053 m, 2.8 % of H) takes the
// deepest tail skin in a leg from 2.45 % to 1.49 % of H with the loop
// converged (seam 0.008 deg); a larger margin (0.07-0.09 m; the gate's
// tail_never_enters_legs uses 0.09 at 240 steps per loop) gets the skin out but the
// legs kick the tail about: warm-up never converges and the seam opens to
// 1-22 deg, a visible pop at every loop.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "rig/model/model.h"
#include "solver/chain.h"

namespace pipeline {

// Fallback margin where the tail's root has too little skin to measure:
// the fox fixture's root radius relative to its height (0.053 m of 1.91 m).
inline constexpr double kMarginOfHWithoutSkin = 0.028;
// The margin is at most this share of H: the fox fixture's brush of a tail
// measures 2.8 % of H at its root; a larger "root radius" is rump skin the
// first tail bone dominates (the Rat's measures 20 % of H, the T-Rex's 21 %),
// and a margin that size shoves the tail about (the Rat's attack: tail skin
// 6.4 % of H in the legs with it, none without).
inline constexpr double kMaxMarginOfH = 0.028;

struct BakeColliders {
  std::vector<rig::JointCapsule> capsules;  // bind space, rig units
  std::string source;                       // "stored" (the file's), "fitted" or "none"
  double margin_m = 0.0;                    // the clearance the chain keeps
  std::string margin_source;                // "tail root radius", "of H" (capped or no skin) or "given"
  // Measuring: the tail's vertices (dominated by a tail bone), and per one
  // whether it is outside every capsule at bind (seam skin is not counted).
  std::vector<int> tail_vertices;
  std::vector<char> counted;
};

// Per joint of `c`: 1 for the chain's bones and every joint below them.
std::vector<char> chain_joints(const rig::Skeleton& sk, const solver::ChainDesc& desc);

// For the chain `desc` of `c` (pipeline::character_chain); `height_units`:
// H in rig units. `given_margin_m` >= 0 is used as the margin as it is.
// The bake and the gate's replay of it call this alike.
BakeColliders bake_colliders(const rig::Character& c, const solver::ChainDesc& desc, double height_units,
                             double given_margin_m);

// The tail skin's radius at its root, rig units (0 when no link of the first
// half of the chain dominates enough skin).
double tail_root_radius(const rig::Character& c, const solver::ChainDesc& desc);

// The deepest tail vertex inside a capsule in the pose `world` (joint world
// matrices), rig units; 0 when none is inside or there are no capsules.
double tail_depth(const rig::Character& c, const BakeColliders& k, std::span<const rig::Mat4> world);

}  // namespace pipeline
