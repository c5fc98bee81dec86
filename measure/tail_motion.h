// Tail motion (so a tail that barely moves cannot pass as a good result,
// SPEC §7's "p99 1.03" story) and hip trajectories (SPEC §5).
#pragma once

#include <Eigen/Geometry>

#include <span>
#include <vector>

namespace measure {

struct TailMotion {
  double tip_range = 0;  // largest distance between two tip positions in the hips frame
  double tip_rms = 0;    // RMS distance of the tip from its mean position, hips frame
  std::vector<double> bone_angle_range_deg;  // per bone: largest angle between two directions
};

// `tip_in_hips[s]`: tip position at sample s in the hips frame (units of the
// caller). `bone_dirs_in_hips[b][s]`: unit direction of bone b at sample s in
// the hips frame.
TailMotion tail_motion(std::span<const Eigen::Vector3d> tip_in_hips,
                       const std::vector<std::vector<Eigen::Vector3d>>& bone_dirs_in_hips);

// Largest absolute per-sample difference of two equally sampled series.
double max_abs_delta(std::span<const double> a, std::span<const double> b);

}  // namespace measure
