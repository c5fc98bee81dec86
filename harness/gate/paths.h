// Default locations of scenarios/, golden/ and the per-user results cache
// (each overridable on the command line). An installed harness never reads
// or writes the source tree it was built from.
#pragma once

#include <string>

namespace harness {

// Folder holding scenarios/ and golden/: <prefix>/share/tailrig beside an
// installed binary (<prefix>/bin/harness, found from /proc/self/exe, so an
// unpacked .deb works anywhere), else the source tree of a build-tree binary.
std::string data_dir();
inline std::string default_scenarios_dir() { return data_dir() + "/scenarios"; }
inline std::string default_golden_dir() { return data_dir() + "/golden"; }

// Pass/fail of the last `harness run` per scenario, shown by `harness list`:
// $XDG_CACHE_HOME/tailrig/last_results.json, else
// $HOME/.cache/tailrig/last_results.json; empty (no cache) when neither is set.
std::string last_results_path();

}  // namespace harness
