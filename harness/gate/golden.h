// Goldens: expected metric values with per-metric tolerances, one JSON file
// per scenario. Changed only by `harness run --update-golden`.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/gate/result.h"
#include "rig/io/io.h"
#include "harness/gate/scenario.h"

namespace harness {

// Compares every numeric metric of `r` with the golden file; appends one
// failure line per metric out of tolerance, missing from either side.
// A missing or unreadable golden is a data error (not a pass).
rig::Status compare_with_golden(const std::string& golden_path, ScenarioResult& r);
// The same on a parsed golden document; `path` names it in messages.
rig::Status compare_with_golden_json(const nlohmann::json& golden, const std::string& path, ScenarioResult& r);

// The comparison rule: a metric passes when |actual - golden| <= this, i.e.
// max(abs, rel x |golden|) of its tolerance {"abs": x, "rel": y} (each
// optional, 0 when absent). A golden entry without a tolerance gets rel 1 %.
// Pinned by the golden_self_check scenario and golden_test.
double allowed_deviation(const nlohmann::json& tolerance, double golden);

// True when `s` matches `pattern`, where '*' matches any run of characters
// (golden tolerance keys, corpus known gaps). Recursion depth <= pattern size.
bool glob_match(const std::string& pattern, const std::string& s, size_t i = 0, size_t j = 0);

// Checks the scenario's stated invariants ("expect"); appends failures.
void check_expectations(const Scenario& s, ScenarioResult& r);

// One expectation: `v op rhs` ("==": |v - rhs| <= within). False for NaN or
// infinite operands.
bool expectation_holds(const std::string& op, double v, double rhs, double within);

// Writes a new golden from `r` (tolerances from the scenario, default
// rel 1 %) and returns human-readable lines describing what changed.
rig::Status write_golden(const std::string& golden_path, const Scenario& s, const ScenarioResult& r,
                         std::vector<std::string>& diff_lines);

}  // namespace harness
