// Placeholder: owned by the grounding scenario work (issue #7).
#include "runners.h"

namespace harness {

rig::Status run_grounding_scenario(const Scenario& s, const RunOptions&, ScenarioResult&) {
  return rig::Status::Error(rig::Status::Code::kBadData, s.path + ": scenario kind '" + s.kind + "' is not implemented yet");
}

}  // namespace harness
