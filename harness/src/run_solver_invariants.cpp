// Solver invariant scenarios (issue 6): kinds starting with "solver_".
#include "runners.h"

namespace harness {

rig::Status run_solver_invariant(const Scenario& s, const RunOptions&, ScenarioResult&) {
  return rig::Status::Error(rig::Status::Code::kBadData, s.path + ": unknown scenario kind '" + s.kind + "'");
}

}  // namespace harness
