// Bake the spring into keyframes (SPEC §9). Offline: allocates.
//
// Looping clips: whole loops run silently until the tail state at the loop
// point converges (warm-up, SPEC §11 reading), then one loop is recorded and
// its seam measured before it is closed. Non-looping clips start from the
// chain settled in carry pose under the first hips sample (reset()).
#pragma once

#include <Eigen/Geometry>

#include <span>
#include <vector>

#include "solver/chain.h"
#include "solver/colliders.h"
#include "solver/params.h"

namespace solver {

struct BakeOptions {
  // Sample rate of the hips samples and of the baked keys, Hz.
  double sample_rate = 30.0;
  // Model height H, metres; tolerances are relative to it. <= 0 uses the
  // tail length as H.
  double model_height = 0.0;
  // Warm-up converges when the hips-frame tail state at the loop point
  // (positions, and velocities times 1 s) changes by less than
  // tolerance * H between passes. Dimensionless.
  double tolerance = 1e-4;
  // Maximum number of warm-up passes (whole loops). Count. 0 = cold start:
  // the recorded loop starts from the settled carry pose (for comparisons;
  // its seam does not close). Negative counts as 0.
  int max_passes = 30;
  // bake_loop: set the last key to the first after measuring the seam, so
  // the written loop closes exactly.
  bool close_loop = true;
  // Colliders per hips sample (colliders.h): sample k's are
  // capsules[k * capsules_per_frame, (k + 1) * capsules_per_frame). 0: none.
  std::span<const Capsule> capsules;
  int capsules_per_frame = 0;
};

struct BakeResult {
  // Warm-up passes run (not counting the recording pass). 0 for bake_clip.
  int passes = 0;
  // The warm-up reached a fixed loop (cycle_loops 1) or a cycle of loops.
  bool converged = false;
  // Loops after which the loop-point state repeats, 1..8: a chain striking
  // the floor or a collider can settle into a cycle of several loops (the
  // tail bouncing every other stride); the keys are then the mean of the
  // cycle's loops, which closes. 1 when not converged.
  int cycle_loops = 1;
  // Last measured change between consecutive passes, relative to H (in a
  // cycle of several loops: how far apart its loops' starts lie).
  double last_change = 0.0;
  // Seam of a loop, measured on the recorded keys before closing: angle
  // between the last and the first key per bone, degrees (size N), and its
  // maximum. Zero for bake_clip.
  std::vector<double> bone_closure_error_deg;
  double closure_error_deg = 0.0;
  // Seam of the tail tip (FK of the chain) in the hips frame: distance
  // between its position at the last and at the first key, metres.
  double tip_closure_error = 0.0;
  int frames = 0;  // keys: M + 1 (loop: first = last when closed)
  int bones = 0;   // N
  // Key times, seconds: k / sample_rate, k = 0..M. Size M + 1.
  std::vector<double> times;
  // Local rotations, key-major: rotations[k * N + i] is bone i (desc.links
  // order) at key k, parent-relative. Size (M + 1) * N. Unit, finite.
  std::vector<Eigen::Quaterniond> rotations;
  // Tail tip (end of the last link) per key in the hips frame (X lateral,
  // Y up, Z forward) relative to the tail root head, metres. Size M + 1.
  std::vector<Eigen::Vector3d> tip_in_hips;
};

// `hips` holds M >= 1 hips world transforms (rig units) sampled at
// k / sample_rate over one loop; the loop wraps from sample M-1 to sample 0.
// With idle sway on (params.h) its period is rounded to a whole number of
// periods per loop, so the loop closes.
// Returns false (result empty) only on bad input (empty, non-finite).
bool bake_loop(const ChainDesc& desc, const ChainParams& params,
               std::span<const Eigen::Affine3d> hips, const BakeOptions& options,
               BakeResult& out);

// Non-looping clip: `hips` holds M + 1 >= 1 hips world transforms (rig
// units) sampled at k / sample_rate, k = 0..M (first and last frame of the
// clip included). The chain starts settled in carry pose under hips[0];
// keys k = 0..M. Returns false (result empty) only on bad input.
bool bake_clip(const ChainDesc& desc, const ChainParams& params,
               std::span<const Eigen::Affine3d> hips, const BakeOptions& options,
               BakeResult& out);

}  // namespace solver
