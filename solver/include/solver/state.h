// ChainState: everything that changes while the tail simulates. Owned by the
// caller, sized once by init_state() (the only allocation), then reused by
// reset() and step() without allocating.
#pragma once

#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <vector>

#include "solver/chain.h"
#include "solver/colliders.h"

namespace solver {

// Constants of the internal step derived from ChainParams (exp, cos, sin)
// with the parameter values they were computed from. step() and reset()
// recompute them whenever one of those values differs, so params edited
// between calls take effect; the cached values are the same bits a fresh
// computation gives, so caching never changes a result.
struct StepConstants {
  // Key.
  bool valid = false;
  int links = 0;
  double internal_step = 0.0, bend_coupling_rate = 0.0, bend_limit_deg = 0.0;
  double contact_damping = 0.0, teleport_angle_deg = 0.0;
  // Values.
  double alpha = 0.0;              // bend coupling 1 - exp(-k h), 0 = off
  double theta_max = 0.0;          // bend limit, radians (<= 0: off)
  double cos_half_limit = 1.0;     // cos(theta_max / 2) threshold on |w|
  double sin_half_limit = 0.0;     // sin(theta_max / 2)
  double contact_decay = 1.0;      // exp(-gamma h)
  double cos_half_teleport = 1.0;  // threshold on |w| of the hips turn
};

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
  // Idle sway (params.h): the caller's clock (sum of dt since reset, seconds)
  // and the tail root's smoothed speed, m/s.
  double sway_time = 0.0;
  double sway_speed = 0.0;
  bool initialized = false;
  // Diagnostics: number of teleports handled since reset(), internal steps
  // taken by the latest step() call.
  int teleports = 0;
  int last_substeps = 0;
  // step() calls whose hips transform was not finite: ignored, state kept.
  int rejected_hips = 0;

  // --- Caches (derived data, never an input) ------------------------------------
  StepConstants constants;
  // hips_prev decomposed (rotation, translation, root head offset in the
  // hips' rotation frame, rig units), valid while hips_prev and the desc's
  // root_head_in_hips equal the keys.
  bool hips_prev_cached = false;
  Eigen::Matrix4d hips_prev_key = Eigen::Matrix4d::Identity();
  Eigen::Vector3d hips_prev_root_key = Eigen::Vector3d::Zero();
  Eigen::Quaterniond hips_prev_rot = Eigen::Quaterniond::Identity();
  Eigen::Vector3d hips_prev_trans = Eigen::Vector3d::Zero();
  Eigen::Vector3d hips_prev_offset = Eigen::Vector3d::Zero();

  // Colliders of the latest step() (rig units, world): the start of the next
  // frame's interpolation.
  std::array<Capsule, kMaxColliders> capsules_prev{};
  int capsules_prev_count = 0;

  int size() const { return static_cast<int>(pos.size()); }
};

// Sizes every array for `desc` (allocates). Call once; state is then reset by
// reset() or implicitly by the first step().
void init_state(const ChainDesc& desc, ChainState& state);

}  // namespace solver
