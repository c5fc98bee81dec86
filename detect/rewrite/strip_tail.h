// Turning a real tailed rig into a test case (issue 5): take the tail bones'
// weights away and give them to the nearest body bones (hips, thighs, shins,
// feet), as a humanoid auto-rigger would.
#pragma once

#include <string>
#include <vector>

#include "rig/model/status.h"
#include "rig/model/model.h"

namespace detect {

// Default: "tail" as a whole name token, optionally followed by digits, case
// insensitive: Tail, Tail1, b_Tail01_012, Tail_3, mixamorig:Tail — not Retail.
extern const char* const kDefaultTailRegex;

// True when `name` matches `regex` (ECMAScript, case-insensitive, searched).
bool matches_tail_name(const std::string& name, const std::string& regex);

struct StripTailParams {
  std::string regex = kDefaultTailRegex;
  int nearest_bones = 2;  // tail weight split over this many nearest body bones
  // Take the tail joints out of the skeleton (a humanoid rigger has none).
  // Off: they stay, weightless, so node indices and their channels match the input.
  bool remove_joints = true;
};

struct StripTailResult {
  std::vector<int> removed;  // tail joints (matched ones and their descendants), input indices
  std::vector<int> targets;  // body joints that may receive weight, input indices
  int vertices_changed = 0;
};

// Returns in `out` a copy of `in` where no vertex keeps weight on a tail joint
// (matched by name, plus all their descendants): each vertex's tail weight is
// split over its `nearest_bones` nearest body bones (inverse-square distance
// to the bone segments), merged with its other influences, renormalised.
// Then the tail joints leave the skeleton (params.remove_joints; a glTF
// source keeps their nodes outside the skin, so its clips stay valid).
// kBadData when nothing matches or no body bone is found.
rig::Status strip_tail(const rig::Character& in, const StripTailParams& params,
                       rig::Character& out, StripTailResult* result = nullptr);

}  // namespace detect
