// The report's HTML viewer (issue 48): `harness run --report DIR` also
// writes DIR/viewer.html, one self-contained file (three.js from web/'s npm
// packages, the WebAssembly solver, the characters and the results inlined;
// no network at view time): the first fixture character of the run before
// and after fix, per-edge stretch as colour, a time slider over its clip,
// the tail live from the wasm solver beside the baked one, and the tables.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/gate/scenario.h"
#include "rig/model/status.h"

namespace harness {

// web/ beside scenarios/ (data_dir()): the template, three.js and the built
// wasm come from there. When they are missing (web/ not built: npm ci and
// npm run build in web/), nothing is written and `note` says why: a report
// without a viewer is still a report. Errors of writing are a status.
rig::Status write_viewer(const std::string& dir, const std::vector<Scenario>& scenarios,
                         const nlohmann::json& results, std::string& note);

}  // namespace harness
