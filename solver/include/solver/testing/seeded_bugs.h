// FOR TESTS ONLY. The historical bugs of SPEC §4, re-enabled on request so
// tests and the gate can show that their checks still catch them, and the
// solver entry points that take them. Not part of the public API: solver.h
// and the C API do not include this header, it is not installed, and the
// public build_chain(), reset() and step() run with no bugs.
#pragma once

#include <Eigen/Geometry>

#include <span>

#include "solver/chain.h"
#include "solver/params.h"
#include "solver/state.h"

namespace solver::testing {

// Which historical bugs to re-enable; all off by default.
struct SeededBugs {
  // Bug 1 (fixed-fraction follow, 12 % per frame): every link uses
  // omega = sqrt(0.12) / frame_dt (frame_dt = the caller's dt), i.e. a
  // ~3.4 Hz spring at 60 fps that depends on frame rate. Read by step().
  bool fixed_fraction_follow = false;
  // Bug 2 (velocity feedback of the rope correction, PBD style): the
  // projection correction divided by the step is added to the velocity
  // instead of removing the radial component. Read by step().
  bool rope_velocity_feedback = false;
  // Bug 3 (carry applied per joint frame): every link gets the full carry
  // relative to its parent, so an N-bone tail is lifted N times. Read by
  // build_chain() only (it is baked into the ChainDesc).
  bool carry_per_joint = false;
};

// solver::build_chain() with `bugs.carry_per_joint`.
ChainStatus build_chain(const ChainRigInput& in, const ChainParams& params, const SeededBugs& bugs,
                        ChainDesc& out);

// solver::reset() with the step-time bugs of `bugs` (the settle steps).
void reset(const ChainDesc& desc, const ChainParams& params, const SeededBugs& bugs, ChainState& state,
           const Eigen::Affine3d& hips_world);

// solver::step() with the step-time bugs of `bugs`.
void step(const ChainDesc& desc, const ChainParams& params, const SeededBugs& bugs, ChainState& state,
          double dt, const Eigen::Affine3d& hips_world, std::span<Eigen::Quaterniond> out_local_rotations);

}  // namespace solver::testing
