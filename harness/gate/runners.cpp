#include "harness/gate/runners.h"

namespace harness {

// Kind "bake_loops" (run_bake.cpp): baked loops close, replay matches the solver.
rig::Status run_bake_scenario(const Scenario& s, const RunOptions& o, ScenarioResult& out);
// Kind "bake_idle_sway" (run_idle_sway.cpp): a baked idle sways, a walk does not.
rig::Status run_idle_sway_scenario(const Scenario& s, const RunOptions& o, ScenarioResult& out);
// Kinds "golden_self_check" and "metric_definitions" (run_self_checks.cpp).
rig::Status run_golden_self_check(const Scenario& s, const RunOptions& o, ScenarioResult& out);
rig::Status run_metric_definitions(const Scenario& s, const RunOptions& o, ScenarioResult& out);

rig::Status run_scenario(const Scenario& s, const RunOptions& o, ScenarioResult& out) {
  out.name = s.name;
  out.description = s.description;
  if (s.kind == "edge_stretch") return run_edge_stretch(s, o, out);
  if (s.kind.rfind("solver_", 0) == 0) return run_solver_invariant(s, o, out);
  if (s.kind.rfind("colliders_", 0) == 0) return run_collider_invariant(s, o, out);
  if (s.kind.rfind("grounding_", 0) == 0) return run_grounding_scenario(s, o, out);
  if (s.kind == "corpus") return run_corpus(s, o, out);
  if (s.kind == "bake_loops") return run_bake_scenario(s, o, out);
  if (s.kind == "bake_idle_sway") return run_idle_sway_scenario(s, o, out);
  if (s.kind == "golden_self_check") return run_golden_self_check(s, o, out);
  if (s.kind == "metric_definitions") return run_metric_definitions(s, o, out);
  if (s.kind.rfind("retarget_", 0) == 0) return run_retarget_scenario(s, o, out);
  return rig::Status::Error(rig::Status::Code::kBadData, s.path + ": unknown scenario kind '" + s.kind + "'");
}

}  // namespace harness
