// Scenario runners by kind. Each fills a ScenarioResult (rows, metrics,
// series) or returns a data error; golden comparison happens afterwards.
#pragma once

#include "harness/gate/result.h"
#include "rig/io/io.h"
#include "harness/gate/scenario.h"

namespace harness {

struct RunOptions {
  bool contact_sheet = false;  // collect geometry for the contact sheet plot
  int jobs = 1;                // threads a scenario may use inside (harness run --jobs)
  // solver_* scenarios step a one-chain solver::Batch instead of the scalar
  // reference (harness run --solver batch); their expectations still apply.
  bool batch_solver = false;
};

rig::Status run_edge_stretch(const Scenario& s, const RunOptions& o, ScenarioResult& out);
// Kinds starting with "solver_" (run_solver_invariants.cpp).
rig::Status run_solver_invariant(const Scenario& s, const RunOptions& o, ScenarioResult& out);
// Kinds starting with "colliders_" (run_solver_invariants.cpp): the scalar
// reference only (a solver_* kind also runs on the batch solver, which has no
// colliders yet).
rig::Status run_collider_invariant(const Scenario& s, const RunOptions& o, ScenarioResult& out);
// Kinds starting with "grounding_" (run_grounding*.cpp): body grounding and
// calibration scenarios of SPEC §5-6.
rig::Status run_grounding_scenario(const Scenario& s, const RunOptions& o, ScenarioResult& out);
// Kinds starting with "retarget_" (run_retarget.cpp): mocap retargeted onto
// fixtures and measured.
rig::Status run_retarget_scenario(const Scenario& s, const RunOptions& o, ScenarioResult& out);

// Kind "corpus" (run_corpus*.cpp): every shared character and fixture
// against its manifest entry (issue 11).
rig::Status run_corpus(const Scenario& s, const RunOptions& o, ScenarioResult& out);

// Dispatches on s.kind; unknown kinds are a data error.
rig::Status run_scenario(const Scenario& s, const RunOptions& o, ScenarioResult& out);

}  // namespace harness
