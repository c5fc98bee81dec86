// ChainState: everything that changes while the tail simulates. Owned by the
// caller, sized once by init_state() (the only allocation), then reused by
// reset() and step() without allocating.
#pragma once

#include <Eigen/Geometry>

#include <cstdint>
#include <vector>

#include "solver/chain.h"

namespace solver {

struct ChainState {
  // --- Internal simulation state (fixed internal step), index = link i ------
  // Particle (link tip) positions, world space, metres (= rig world units x
  // meters_per_unit). Size N.
  std::vector<Eigen::Vector3d> pos;
  // Particle velocities, world space, m/s. Size N.
  std::vector<Eigen::Vector3d> vel;
  // Bend snapshot of the previous internal step, hips frame (SPEC §4 q_i).
  // Size N. bend_scratch is the buffer the current step writes.
  std::vector<Eigen::Quaterniond> bend;
  std::vector<Eigen::Quaterniond> bend_scratch;
  // Local (parent-relative) rotations after the previous and the latest
  // internal step. Size N each.
  std::vector<Eigen::Quaterniond> local_prev;
  std::vector<Eigen::Quaterniond> local_cur;
  // Scratch: world rotation of each tail bone in the current internal step.
  std::vector<Eigen::Quaterniond> world_rot;
  // 1 when the particle touched the floor in the latest internal step. Size N.
  std::vector<std::uint8_t> contact;

  // --- Output of the latest step() -------------------------------------------
  // Interpolated local rotations written to the caller's span. Size N.
  std::vector<Eigen::Quaterniond> out_local;
  // Displayed chain points, world space, metres: [0] = tail root head,
  // [i + 1] = tip of link i (so bone i spans points[i]..points[i+1]).
  // Size N + 1. Recomputed by FK from the output rotations and the current
  // hips, so every link has exactly its rest length.
  std::vector<Eigen::Vector3d> points;

  // --- Clock and hips history -------------------------------------------------
  // Hips world transform passed to the latest step()/reset(), rig units.
  Eigen::Affine3d hips_prev = Eigen::Affine3d::Identity();
  // Time since the latest internal step, seconds, in [0, internal_step).
  double accumulator = 0.0;
  // Total simulated time since reset(), seconds.
  double time = 0.0;
  bool initialized = false;
  // Diagnostics: number of teleports handled since reset(), internal steps
  // taken by the latest step() call.
  int teleports = 0;
  int last_substeps = 0;
  // step() calls whose hips transform was not finite: ignored, state kept.
  int rejected_hips = 0;

  int size() const { return static_cast<int>(pos.size()); }
};

// Sizes every array for `desc` (allocates). Call once; state is then reset by
// reset() or implicitly by the first step().
void init_state(const ChainDesc& desc, ChainState& state);

}  // namespace solver
