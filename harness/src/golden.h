// Goldens: expected metric values with per-metric tolerances, one JSON file
// per scenario. Changed only by `harness run --update-golden`.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "result.h"
#include "rig/io.h"
#include "scenario.h"

namespace harness {

// Compares every numeric metric of `r` with the golden file; appends one
// failure line per metric out of tolerance, missing from either side.
// A missing or unreadable golden is a data error (not a pass).
rig::Status compare_with_golden(const std::string& golden_path, ScenarioResult& r);

// True when `s` matches `pattern`, where '*' matches any run of characters
// (golden tolerance keys, corpus known gaps). Recursion depth <= pattern size.
bool glob_match(const std::string& pattern, const std::string& s, size_t i = 0, size_t j = 0);

// Checks the scenario's stated invariants ("expect"); appends failures.
void check_expectations(const Scenario& s, ScenarioResult& r);

// Writes a new golden from `r` (tolerances from the scenario, default
// rel 1 %) and returns human-readable lines describing what changed.
rig::Status write_golden(const std::string& golden_path, const Scenario& s, const ScenarioResult& r,
                         std::vector<std::string>& diff_lines);

}  // namespace harness
