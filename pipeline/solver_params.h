// solver::ChainParams from a JSON object of spring parameters (a scenario's
// "solver" object, the CLI's --solver; field names as in solver/params.h);
// unknown names are a data error. The gate's seeded historical bugs are not
// parameters: harness/gate/solver reads those itself.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "solver/params.h"

namespace pipeline {

bool apply_solver_overrides(const nlohmann::json& j, solver::ChainParams& p, std::string& error);

}  // namespace pipeline
