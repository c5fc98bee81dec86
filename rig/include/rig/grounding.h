// Body grounding that ignores the tail (SPEC §5).
//
// S = support points: per dominant joint, the `points_per_joint` vertices with
// the lowest bind y (ties by index). T = points whose dominant joint is a tail
// bone, E = points whose dominant joint is a foot or toe (limb contact).
//   f_body = min_{S\T} y0,  c(t) = min_{S\(T∪E)} y(t) - f_body,
//   L_raw(t) = max(0, a(t) - c(t)).
// With count_tail the minima run over S and S\E instead (measurement only).
// Y up; lengths in the character's units.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "rig/model.h"

namespace rig {

struct GroundingOptions {
  bool count_tail = false;
  int points_per_joint = 4;
  // When non-empty, these joints are the tail bones instead of auto detection.
  std::vector<int> tail_joints;
  // a(t) <= 0: sink below the reference floor the source allows (constant).
  double allowed_sink = 0.0;
  // Smoothing half-width in samples: a max filter then a moving average of the
  // same radius, so the smoothed lift is never below L_raw. 0 = none.
  int smoothing_radius = 2;
};

// True when `token` (case-insensitive) is a whole token of `name`; tokens
// split at non-alphanumerics, lower->upper case changes and letter/digit
// changes ("mixamorig:Tail1", "TailBase", "tail_02"; not "Retail").
bool name_has_token(std::string_view name, std::string_view token);

// Per joint: a tail bone (role none and a "tail" name token, or a role-none
// descendant of one), or exactly the caller's set when given.
std::vector<bool> tail_joint_mask(const Skeleton& skeleton, std::span<const int> explicit_tail = {});

// The joint with the largest weight (ties: the lower index), -1 if none.
// Support points are grouped by it; T is the points whose dominant joint is a
// tail bone.
int dominant_joint(std::span<const Influence> influences);

struct SupportPoints {
  std::vector<int> vertices;   // mesh vertex indices, sorted by dominant joint
  std::vector<int> dominant;   // dominant joint per point
  std::vector<bool> tail;      // in T
  std::vector<bool> contact;   // in E
};
SupportPoints sample_support(const Character& character, const GroundingOptions& options);

// L_raw at each time (before smoothing). Poses use the clip on top of the
// neutral (bind) locals.
std::vector<double> ground_lift_raw(const Character& character, const Clip& clip,
                                    std::span<const double> times, const GroundingOptions& options);

// Smoothed per-sample lift to add to the hips' world y.
std::vector<double> ground_lift(const Character& character, const Clip& clip,
                                std::span<const double> times, const GroundingOptions& options);

// The smoothing used by ground_lift (max filter then moving average).
std::vector<double> smooth_lift(std::span<const double> raw, int radius);

}  // namespace rig
