// Body grounding that ignores the tail (SPEC §5).
//
// S = support points: per dominant joint, the `points_per_joint` vertices with
// the lowest bind y (ties by index); foot/toe joints also their bind-extreme
// vertices (foot_extremes). T = points whose dominant joint is a tail
// bone, or listed in tail_vertices (one more group, taken whole). E(t) = points given to the limb contact solvers at time t: the
// foot/ankle points of a leg (dominant joint its foot or toe, or its shin with
// the point near the ankle) while that foot is in a contact phase the limb
// reconciliation pins (GroundingOptions::leg_contact). Out of contact a foot
// counts like the rest of the body: a foot under the floor in flight, or at a
// landing the contact detector missed, lifts the pelvis.
//   f_body = min_{S\T} y0,  c(t) = min_{S\(T∪E(t))} y(t) - f_body,
//   L_raw(t) = max(0, a(t) - c(t)).
// With count_tail the minima run over S and S\E(t) instead (measurement only).
// Y up; lengths in the character's units.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "rig/anatomy/skin_queries.h"
#include "rig/model/lowest_skin.h"
#include "rig/model/model.h"

namespace rig {

struct GroundingOptions {
  bool count_tail = false;
  int points_per_joint = 4;
  // Foot and toe joints also give, per direction of {-1,0,1}^3, their skin's
  // most extreme bind vertex in that direction (unless an already taken point
  // is as far): out of contact a foot counts in c(t), and a pointed toe or a
  // raised heel puts a vertex lowest that is not low in bind. Up to 26 more
  // points per foot/toe joint.
  bool foot_extremes = true;
  // When non-empty, these joints are the tail bones instead of auto detection.
  std::vector<int> tail_joints;
  // Mesh vertices in T whatever their dominant joint: a tail a humanoid rigger
  // weighted to the legs has no tail bone to tell it by (detect finds it);
  // `harness retarget` adds cloth hanging past the knees (a floor-length
  // robe or cape weighted to the thighs or shins): no foot stands on it.
  // They form a group of their own, taken whole (in T, or counted with
  // count_tail), so they never crowd a leg's own lowest points out of S.
  std::vector<int> tail_vertices;
  // a(t) <= 0: sink below the reference floor the source allows (constant).
  double allowed_sink = 0.0;
  // Smoothing half-width in seconds, turned into samples per clip by its mean
  // key spacing (so 30 Hz and 120 Hz sampling smooth over the same time): a
  // max filter then a moving average of that radius, so the smoothed lift is
  // never below L_raw. 0 = none.
  double smoothing_radius_s = 0.04;
  // E also holds shin-dominated points within this fraction of the leg length
  // (thigh->shin->foot, bind) of the ankle (the foot joint). Grounding runs
  // before limb reconciliation, and floor alignment leaves stance feet a
  // little under the floor for the IK to lift; skin next to the ankle rides
  // with the foot, so counting it would lift the pelvis for a sink the IK
  // removes anyway. 0 = feet and toes only.
  double contact_shin_fraction = 0.25;
  // Per leg (find_legs order), per sample of the `times` grounding is given:
  // true while that foot is in a contact phase the limb reconciliation pins
  // (rig::transfer_clip detects the phases on the floor-aligned clip before
  // the lift and passes the same phases to reconcile_limbs). Only then are
  // the leg's foot/ankle points in E. A leg or sample past the end of the
  // mask is out of contact, and foot/toe skin of a joint in no leg is never
  // in E. Empty (the default): no phases known, every leg's foot/ankle
  // points are in E at every sample (a static E; only for callers without
  // limb reconciliation, e.g. looking at the support sets alone).
  std::vector<std::vector<bool>> leg_contact;
};

struct SupportPoints {
  std::vector<int> vertices;   // mesh vertex indices, grouped by dominant joint (tail_vertices last)
  std::vector<int> dominant;   // dominant joint per point
  std::vector<bool> tail;      // in T
  std::vector<bool> contact;   // foot/ankle point: in E(t) while its leg is in contact
  std::vector<int> leg;        // for those: the leg (find_legs order), -1 if in no leg
};
SupportPoints sample_support(const Character& character, const GroundingOptions& options);
// The same from groups built once (group_by_dominant_joint of `character`).
SupportPoints sample_support(const Character& character, const SkinGroups& groups, const GroundingOptions& options);

// L_raw at each time (before smoothing). Poses use the clip on top of the
// neutral (bind) locals. options.leg_contact[leg][k] refers to times[k].
std::vector<double> ground_lift_raw(const Character& character, const Clip& clip,
                                    std::span<const double> times, const GroundingOptions& options);
// The same with S sampled once (sample_support of `character` with options
// that differ from `options` at most in count_tail and leg_contact).
std::vector<double> ground_lift_raw(const Character& character, const SupportPoints& support, const Clip& clip,
                                    std::span<const double> times, const GroundingOptions& options);
// The same with the support's vertices indexed once (index_lowest_skin of
// `character` and support.vertices, the same list in the same order).
std::vector<double> ground_lift_raw(const Character& character, const SupportPoints& support,
                                    const LowestSkinIndex& index, const Clip& clip, std::span<const double> times,
                                    const GroundingOptions& options);

// Smoothed per-sample lift to add to the hips' world y.
std::vector<double> ground_lift(const Character& character, const Clip& clip,
                                std::span<const double> times, const GroundingOptions& options);
std::vector<double> ground_lift(const Character& character, const SupportPoints& support, const Clip& clip,
                                std::span<const double> times, const GroundingOptions& options);

// The smoothing used by ground_lift (max filter then moving average); radius
// in samples.
std::vector<double> smooth_lift(std::span<const double> raw, int radius);

// `seconds` as a whole number of samples of `times` (mean key spacing,
// rounded; 0 for fewer than two keys or a non-positive time).
int smoothing_samples(std::span<const double> times, double seconds);

}  // namespace rig
