// solver::ChainParams from a scenario's "solver" object (field names as in
// solver/params.h); unknown names are a data error.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "solver/params.h"

namespace pipeline {

bool apply_solver_overrides(const nlohmann::json& j, solver::ChainParams& p, std::string& error);

}  // namespace pipeline
