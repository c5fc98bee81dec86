// Solver invariant scenarios (issue 6, SPEC §4 and §8): kinds starting with
// "solver_". Each kind drives the spring chain headless (synthetic rigs, or a
// fixture run through detect --chain), writes numeric metrics, and the
// scenario's "expect" list states the invariant; the golden pins the values.
// Historical bugs of SPEC §4 (solver/testing/seeded_bugs.h; "test_bug_*"
// booleans of a scenario's "variants_solver") are re-enabled inside the same
// run and reported as bug_* metrics whose expectations show that the
// detection still fires.
//
// With `harness run --solver batch` the same bodies drive a one-chain
// solver::Batch (ChainDriver); the expectations must hold for it too, the
// goldens pin the scalar reference only.
//
// The scenario bodies live in solver_invariants_*.cpp, grouped by theme; the
// shared rig, motion and driver in solver_invariants_common.{h,cpp}.
#include <exception>
#include <string>

#include "harness/gate/runners.h"
#include "harness/gate/solver/solver_invariants_common.h"

namespace harness {

rig::Status run_solver_invariant(const Scenario& s, const RunOptions& o, ScenarioResult& out) {
  using namespace solver_invariants;
  const BatchScope solver_choice(o.batch_solver);  // harness run --solver batch
  try {
    if (s.kind == "solver_fast_hip_swing") return fast_hip_swing(s, out);
    if (s.kind == "solver_lr_symmetry") return lr_symmetry(s, out);
    if (s.kind == "solver_fps_independence") return fps_independence(s, out);
    if (s.kind == "solver_teleport") return teleport(s, out);
    if (s.kind == "solver_loop_closure") return loop_closure(s, out);
    if (s.kind == "solver_contact_never_moves_body") return contact_never_moves_body(s, out);
    if (s.kind == "solver_bend_smoothness") return bend_smoothness(s, out);
    if (s.kind == "solver_ground") return ground(s, out);
    if (s.kind == "solver_bind_pose_recovery") return bind_pose_recovery(s, out);
    if (s.kind == "solver_rotated_end_bone") return rotated_end_bone(s, out);
  } catch (const ScenarioRegression&) {
    throw;  // the product failed: harness run reports a regression, not bad parameters
  } catch (const std::exception& e) {
    return bad(s, std::string("scenario parameters: ") + e.what());
  }
  return Status::Error(Status::Code::kBadData, s.path + ": unknown scenario kind '" + s.kind + "'");
}

rig::Status run_collider_invariant(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  using namespace solver_invariants;
  try {
    if (s.kind == "colliders_swing_past_shin") return swing_past_shin(s, out);
  } catch (const ScenarioRegression&) {
    throw;
  } catch (const std::exception& e) {
    return bad(s, std::string("scenario parameters: ") + e.what());
  }
  return Status::Error(Status::Code::kBadData, s.path + ": unknown scenario kind '" + s.kind + "'");
}

}  // namespace harness
