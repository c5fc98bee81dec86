// Default locations of scenarios/, golden/ and reports/: the source tree the
// harness was built from (overridable on the command line).
#pragma once

#include <string>

namespace harness {

inline std::string default_scenarios_dir() { return std::string(TAILRIG_SOURCE_DIR) + "/scenarios"; }
inline std::string default_golden_dir() { return std::string(TAILRIG_SOURCE_DIR) + "/golden"; }
inline std::string last_results_path() { return std::string(TAILRIG_SOURCE_DIR) + "/reports/last_results.json"; }

}  // namespace harness
