// The edge-stretch measurement of SPEC §7 as a function of a character and a
// clip, shared by the walk_stretch scenario (edge_stretch kind) and the
// mocap retarget scenarios.
#pragma once

#include <string>

#include "harness/gate/result.h"
#include "rig/io/io.h"
#include "harness/gate/runners.h"
#include "harness/gate/scenario.h"

namespace harness {

// Detects the tail of `character` (detect::fix, chain mode), then measures
// the tail and body edge sets under `clip` at s.samples evenly spaced times
// for each of s.variants (original / rigid / chain / body), using s.solver
// overrides for the chain. Metric names and row variants get `prefix`
// prepended ("" keeps the walk_stretch names); series (times, p99, hips
// height) are written only when `with_series`. Data errors return a status.
rig::Status measure_edge_stretch(const Scenario& s, const RunOptions& opt, const rig::Character& character,
                                 const rig::Clip& clip, const std::string& prefix, bool with_series,
                                 ScenarioResult& out);

}  // namespace harness
