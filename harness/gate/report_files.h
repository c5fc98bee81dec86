// Report files for docs: Markdown tables, CSV, and JSON (also the input of
// scripts/plot_report.py).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/gate/result.h"
#include "rig/io/io.h"

namespace harness {

nlohmann::json result_json(const ScenarioResult& r);  // the stable --json shape
void print_table(const ScenarioResult& r, std::FILE* out);
rig::Status write_report(const std::string& dir, const ScenarioResult& r);

}  // namespace harness
