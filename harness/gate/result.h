// What running a scenario produces: rows for the stretch table, named
// metrics compared with goldens, series for plots, and failures.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "measure/edge_stretch.h"

namespace harness {

struct Row {
  std::string variant;  // original, rigid, chain, body...
  std::string set;      // "tail" | "body"
  long edges = 0;       // welded edges in the set
  measure::StretchStats stats;
  std::string note;     // e.g. "chain in bind pose: no solver"
  // Tail into the legs (measure/tail_penetration.h), when measured: samples
  // with tail skin deeper than 1 % of H in a leg capsule / samples, and the
  // deepest / H. Negative: not measured (body rows, no legs).
  double in_legs_fraction = -1.0;
  double in_legs_max_rel_H = -1.0;
};

struct ScenarioResult {
  std::string name;
  std::string description;
  bool pass = false;
  std::vector<Row> rows;
  nlohmann::json metrics = nlohmann::json::object();  // name -> number (or table)
  std::vector<std::string> failures;                  // one line each
  nlohmann::json series = nlohmann::json::object();   // for plots: per-sample curves
  nlohmann::json contact = nlohmann::json::object();  // for the contact sheet
  std::vector<std::string> notes;                     // printed under the table
};

nlohmann::json row_json(const Row& r);

// The product failing inside a scenario whose input is fine: detection no
// longer finds the fixture's tail, the solver refuses the chain detect built,
// a file the harness wrote does not read back. Runners throw it (on the
// scenario's own thread only); `harness run` reports it as a regression of
// that scenario (exit 1), not as bad input (exit 2), which stays for missing
// or broken scenario, golden and asset files and bad command lines.
struct ScenarioRegression : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws ScenarioRegression("<scenario>: <what>").
[[noreturn]] inline void fail_regression(const std::string& scenario, const std::string& what) {
  throw ScenarioRegression(scenario + ": " + what);
}

}  // namespace harness
