// What running a scenario produces: rows for the stretch table, named
// metrics compared with goldens, series for plots, and failures.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "metrics/stretch.h"

namespace harness {

struct Row {
  std::string variant;  // original, rigid, chain, body...
  std::string set;      // "tail" | "body"
  long edges = 0;       // welded edges in the set
  StretchStats stats;
  std::string note;     // e.g. "chain in bind pose: no solver"
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

}  // namespace harness
