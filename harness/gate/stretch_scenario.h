// The edge-stretch measurement of SPEC §7 as a function of a character and a
// clip, shared by the walk_stretch scenario (edge_stretch kind) and the
// mocap retarget scenarios.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "detect/find_appendages.h"
#include "rig/anatomy/leg_capsules.h"

#include "harness/gate/result.h"
#include "rig/io/io.h"
#include "harness/gate/runners.h"
#include "harness/gate/scenario.h"

namespace harness {

// What the measurement reads of a character whatever the clip, made once
// per character (issue 47: a scenario of nine clips detected the same tail
// nine times): its tail detected (detect::fix, chain mode), the rigid
// variant, the tail and body edge sets, the legs' capsules.
struct StretchSubject {
  detect::FixResult chained;
  int tail = -1;                  // the first chain region of chained.analysis, or -1
  std::vector<int> tip_vertices;  // tail vertices past 0.9 of its length
  std::vector<int> tail_vertices;  // every chain region's vertices
  rig::Character rigid;           // tail weights 1.0 on Hips (SPEC §2)
  std::vector<std::pair<int, int>> tail_edges, body_edges;  // welded ids
  std::vector<rig::LegCapsule> legs;
  std::vector<char> counted;  // per tail vertex: outside the legs at bind
  const detect::Region* tail_region() const { return tail < 0 ? nullptr : &chained.analysis.regions[tail]; }
};
// A detect failure is the product's regression (fail_regression).
StretchSubject stretch_subject(const Scenario& s, const rig::Character& character);

// Measures the tail and body edge sets of `character` (`subject` made from
// it) under `clip` at s.samples evenly spaced times for each of s.variants
// (original / rigid / chain / body), using s.solver overrides for the chain.
// Metric names and row variants get `prefix` prepended ("" keeps the
// walk_stretch names); series (times, p99, hips height) are written only
// when `with_series`. Data errors return a status.
rig::Status measure_edge_stretch(const Scenario& s, const RunOptions& opt, const rig::Character& character,
                                 const StretchSubject& subject, const rig::Clip& clip, const std::string& prefix,
                                 bool with_series, ScenarioResult& out);

}  // namespace harness
