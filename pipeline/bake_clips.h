// Bake the tail spring into every clip of a character (SPEC §9, issue 12):
// the character's Tail_1..Tail_K chain is simulated under each clip's hips
// motion at a fixed step and the tail bones' local rotations are written as
// real keyframes into that clip. Shared by `harness bake`, `harness fix
// --bake`, `harness retarget --bake` and the bake_loops scenario.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "rig/model/status.h"
#include "rig/model/model.h"
#include "solver/chain.h"
#include "pipeline/spring_size.h"
#include "solver/params.h"

namespace pipeline {

enum class LoopMode { kAuto, kLoop, kNoLoop };

struct BakeClipsOptions {
  // Key rate of the baked tracks, Hz. A clip of duration D gets
  // M = max(1, round(D * fps)) intervals, keys at k * D / M (k = 0..M).
  double fps = 30.0;
  // Clips to bake by name; empty = every clip of the character.
  std::vector<std::string> clips;
  // kAuto: a clip loops when its first and last body poses agree within
  // loop_position_tolerance * H (joint positions) and loop_angle_tolerance_deg,
  // or when its last pose is one key step short of its first (a cycle
  // exported without its closing frame: ClipBakeReport::loop_open; such a
  // clip is keyed on its own key times, not at fps).
  LoopMode loop = LoopMode::kAuto;
  double loop_position_tolerance = 1e-3;  // fraction of H
  double loop_angle_tolerance_deg = 0.5;  // degrees
  // Warm-up for loops (SPEC §9): whole loops until the hips-frame tail state
  // at the loop point changes by less than warmup_tolerance * H, at most
  // max_warmup_passes. warm_up = false records the first loop cold from the
  // settled carry pose (comparison only: its seam does not close).
  bool warm_up = true;
  double warmup_tolerance = 1e-4;
  int max_warmup_passes = 30;
  // Leg colliders (issue 46; bake_colliders.h): the chain is stepped with
  // the character's colliders (the ones it carries, else fitted to its leg
  // skin) posed every frame. false: without (to compare; the baked tail is
  // still measured against them).
  bool colliders = true;
  // Clearance between a link's centreline and a collider, metres (overrides
  // params.collider_margin); < 0: the tail skin's radius at its root.
  double collider_margin_m = -1;
  // Spring parameters; meters_per_unit, forward_axis and lateral_axis are
  // overwritten from the character (its metres per unit; forward = away from
  // where the bind tail points, snapped to a horizontal model axis), and the
  // fields `sizing` names from the tail's length and the body's height
  // (spring_size.h; a field the caller gave is not named there).
  solver::ChainParams params;
  SpringSizing sizing;
};

struct ClipBakeReport {
  std::string name;
  double duration = 0;          // seconds
  bool looping = false;
  bool loop_forced = false;     // --loop / --no-loop decided, not the poses
  // A cycle exported without its closing frame (kAuto): its last pose is one
  // key step short of the first, so it loops with a period one key longer
  // than its span, and its keys are the clip's (the last is not the first).
  bool loop_open = false;
  double loop_pose_error_rel_H = 0;  // largest joint position mismatch first vs last frame / H
  double loop_pose_error_deg = 0;    // largest joint rotation mismatch first vs last frame
  int warmup_passes = 0;
  bool converged = false;       // warm-up converged (loops only)
  int cycle_loops = 1;          // loops after which the tail repeats (> 1: keys are the cycle's mean)
  double last_change_rel_H = 0;
  std::vector<double> seam_deg;  // per tail bone (root first): last vs first key before closing
  double seam_max_deg = 0;
  double seam_tip_rel_H = 0;     // tip seam distance / H (hips frame)
  int keys = 0;                  // per tail bone
  double tip_range_m = 0;        // largest distance between two tip positions, hips frame
  double tip_range_rel_H = 0;
  // Tail into the legs over the baked keys (measure/tail_penetration.h),
  // when the character has leg colliders: keys with tail skin deeper than
  // 1 % of H in a leg capsule / keys, and the deepest / H.
  bool legs_measured = false;
  double tail_in_legs_keys_fraction = 0;
  double tail_in_legs_max_rel_H = 0;
};

struct BakeClipsReport {
  double height_m = 0;
  double meters_per_unit = 1;
  std::vector<std::string> bones;  // baked tail bones, root first
  std::string forward_axis;        // "+Z", "-Z", "+X", "-X" or "(x, 0, z)"
  int colliders = 0;               // leg capsules known (stepped with when colliders_used)
  std::string colliders_source;    // "stored", "fitted" or "none"
  bool colliders_used = false;
  double collider_margin_m = 0;
  std::string margin_source;       // "tail root radius", "of H" or "given"
  double tail_reach_m = 0;         // root to end in bind, metres (spring_size.h)
  double carry_deg = 0;
  double root_frequency_hz = 0;    // the spring baked with (spring_size.h)
  double tip_frequency_hz = 0;
  double damping_ratio = 0;
  std::string spring;              // spring_summary(): the above, and what was sized or given
  std::vector<ClipBakeReport> clips;
};

// True when `c` has a Tail_1.. chain the solver accepts.
bool has_tail_chain(const rig::Character& c);

// Builds the solver chain of `c` (hips by role, Tail_* bones by name) with
// the character's units and facing written into `params`. Data errors
// (no chain, broken chain) return a status.
rig::Status character_chain(const rig::Character& c, solver::ChainParams& params, solver::ChainDesc& desc,
                            std::string* forward_axis = nullptr);

// character_chain with the spring sized to the chain (spring_size.h):
// rebuilt when the sizing changed a [build] field (the carry). What
// bake_clips steps with, and the gate's replay of it.
rig::Status sized_character_chain(const rig::Character& c, const SpringSizing& which, solver::ChainParams& params,
                                  solver::ChainDesc& desc, TailShape& shape, std::string* forward_axis = nullptr);

// Bakes the selected clips of `c` in place: the tail bones' rotation tracks
// are replaced by baked keys (linear, sign-continuous); every other track is
// left untouched. An unknown clip name, a character without a chain or a
// non-finite result is a data error (nothing is changed then).
rig::Status bake_clips(rig::Character& c, const BakeClipsOptions& options, BakeClipsReport& report);

// The report as JSON (the --report file) and as printable lines.
nlohmann::json bake_report_json(const BakeClipsReport& r);
std::vector<std::string> bake_report_lines(const BakeClipsReport& r);

}  // namespace pipeline
