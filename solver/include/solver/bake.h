// Bake the spring into keyframes that loop (SPEC §9). Offline: allocates.
#pragma once

#include <Eigen/Geometry>

#include <span>
#include <vector>

#include "solver/chain.h"
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
  // Maximum number of warm-up passes (whole loops). Count.
  int max_passes = 30;
};

struct BakeResult {
  // Warm-up passes run (not counting the recording pass).
  int passes = 0;
  bool converged = false;
  // Last measured change between passes, relative to H.
  double last_change = 0.0;
  // Angle between the recorded last and first keys before the loop was
  // closed, degrees (max over bones).
  double closure_error_deg = 0.0;
  int frames = 0;  // M + 1 keys (first = last)
  int bones = 0;   // N
  // Key times, seconds: k / sample_rate, k = 0..M. Size M + 1.
  std::vector<double> times;
  // Local rotations, key-major: rotations[k * N + i] is bone i (desc.links
  // order) at key k, parent-relative. Size (M + 1) * N. Key M = key 0.
  std::vector<Eigen::Quaterniond> rotations;
};

// `hips` holds M >= 1 hips world transforms (rig units) sampled at
// k / sample_rate over one loop; the loop wraps from sample M-1 to sample 0.
// Returns false (result empty) only on bad input.
bool bake_loop(const ChainDesc& desc, const ChainParams& params,
               std::span<const Eigen::Affine3d> hips, const BakeOptions& options,
               BakeResult& out);

}  // namespace solver
