// Shared by the grounding scenarios (run_grounding.cpp and
// run_grounding_*.cpp): scenario parameters, the chained fixture target, the
// clip sources and one clip request through rig::transfer_clip.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rig/retarget/clip_transfer.h"
#include "rig/model/model.h"
#include "harness/gate/runners.h"

namespace harness::grounding {

using nlohmann::json;
using rig::Status;

Status bad(const Scenario& s, const std::string& m);

template <class T>
T param(const Scenario& s, const char* key, T fallback) {
  return s.raw.contains(key) ? s.raw[key].get<T>() : fallback;
}

// The scenario's fixture before and after detect --chain.
struct Target {
  rig::Character raw;    // as built: tail skin on leg bones
  rig::Character fixed;  // Tail_1..Tail_K under the hips carry the tail skin
  int hips = -1;
  int tail_bones = 0;
  double mpu = 1.0;
};

Status load_target(const Scenario& s, Target& t);

// A clip to transfer: a mocap file ({"file": "assets:clips/x.bvh"}) or one of
// the fixture's own clips ({"fixture_clip": NAME}, animating the raw fixture).
struct Source {
  std::string key;    // metric prefix ("" = unprefixed)
  std::string label;  // for tables and plots
  rig::Character ch;
  rig::Clip clip;
};

Status load_source(const Scenario& s, const json& spec, const Target& t, Source& out);

rig::GroundingOptions grounding_from(const Scenario& s, double mpu, bool count_tail);

// What one clip request produced.
struct Transfer {
  rig::Clip clip;             // final tracks (rig::transfer_clip)
  std::vector<double> times;  // output keys, seconds
  std::vector<double> lift;   // per key, model units, added to the hips' world y
  double floor_alignment = 0; // model units subtracted from the hips' world y
  int hips = -1;
  std::vector<rig::FootReport> feet;  // limb reconciliation per foot
  std::vector<rig::Vec3> hips_values() const {
    for (const auto& jt : clip.tracks)
      if (jt.joint == hips) return jt.translation.values;
    return {};
  }
};

// One clip request through rig::transfer_clip (SPEC §5-6). `target` is the
// character as the preview holds it (its stored pose may be anything; only
// bind data and `dst_cal` may be read). Empty clip on an error status.
Transfer transfer(const Source& src, const rig::Calibration& src_cal, const rig::Character& target,
                  const rig::Calibration& dst_cal, const rig::GroundingOptions& g, double rate);
// The same with the target prepared once (prepare, for these `g` and
// `rate`): a scenario sending several clips onto one character and
// grounding reads its skin once (rig::prepare_target_support).
rig::TargetSupport prepare(const rig::Character& target, const rig::Calibration& dst_cal,
                           const rig::GroundingOptions& g, double rate);
Transfer transfer(const Source& src, const rig::Calibration& src_cal, const rig::Character& target,
                  const rig::Calibration& dst_cal, const rig::TargetSupport& prepared, const rig::GroundingOptions& g,
                  double rate);
// One clip onto one character under several groundings (g[i], prepared
// for it as prepared[i]): what transfer gives for each, the steps before
// grounding run once (rig::transfer_clip_groundings).
std::vector<Transfer> transfers(const Source& src, const rig::Calibration& src_cal, const rig::Character& target,
                                const rig::Calibration& dst_cal, std::span<const rig::TargetSupport* const> prepared,
                                std::span<const rig::GroundingOptions> g, double rate);

// The scenario kinds, one per "grounding_*" kind: run_grounding_lift.cpp,
// run_grounding_tail_skin.cpp and run_grounding_isolation.cpp.
Status pelvis_lift(const Scenario& s, ScenarioResult& out);
Status tail_skin(const Scenario& s, ScenarioResult& out);
Status calibration_isolation(const Scenario& s, ScenarioResult& out);

}  // namespace harness::grounding
