// Arms above the floor. A long-armed character (a cartoon whose hands hang
// near its knees) retargeted from a human clip swings its hands through the
// floor. Body grounding cannot lift the body for that (the stance feet would
// leave the floor), so the arms make room themselves: at each sample, each
// upper arm turns outward at the shoulder, about the body's forward axis, by
// the least angle that keeps that arm's skin at or above the floor. The
// angles are smoothed over time (never below the needed angle), so an arm
// is turned only where it would go under the floor and next to such
// samples; a turn that cannot clear it (the shoulder itself is low) is not
// made.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "rig/model/model.h"

namespace rig {

struct ArmSkin {
  int upper_arm = -1;        // the joint turned (role kUpperArm)
  int other_upper_arm = -1;  // the opposite side's, for the outward direction (-1: none)
  // Mesh vertices the arm carries: dominant joint the upper arm or below it
  // (a sword on a bone under the hand included), tail skin and the vertices
  // arm_skins was told to leave out excepted.
  std::vector<int> vertices;
  bool operator==(const ArmSkin&) const = default;
};

// Per mesh vertex: part of a carried object, a mesh island (vertices welded
// within weld_tolerance, model units) whose every vertex a prop bone
// (prop_joint_mask) dominates: a sword on a `Weapon` bone, a club skinned to
// a finger of a rig with no hand joint. Fingers joined to the arm's skin are
// not carried objects.
std::vector<char> carried_object_vertices(const Character& character, double weld_tolerance);

// One entry per upper arm of the skeleton's roles (joint order), with its
// skin; vertices marked in `carried` (as carried_object_vertices gives
// them; empty: none) left out. The retarget leaves none out: what a hand
// holds stays out of the floor with it.
std::vector<ArmSkin> arm_skins(const Character& character, std::span<const char> carried);

struct ArmClearanceOptions {
  double floor_y = 0.0;            // model units
  double max_angle = 1.5707963267948966;  // rad: at most a horizontal arm from a hanging one
  int bisection_steps = 16;        // angle resolution max_angle / 2^steps
  double smoothing_radius_s = 0.08;  // max filter then moving average (smooth_lift)
};

struct ArmClearanceResult {
  Clip clip;
  // Per arm (arm_skins order), per sample: the outward turn applied (rad).
  std::vector<std::vector<double>> angle;
  // Per arm, per sample: the arm skin's lowest point minus the floor after
  // the turn (negative: still under it, no turn up to max_angle clearing it
  // or no outward direction at that pose).
  std::vector<std::vector<double>> clearance;
};

// The shared step (arms here, tails in tail_clearance.h): at each sample,
// `joint` turns about the world axis `axis(skin index, world matrices)`
// gives at that pose (zero: no turn) by the least angle that keeps
// `vertices` at or above options.floor_y, smoothed over time as above.
// Results are per entry of `skins`.
struct TurnedSkin {
  int joint = -1;
  std::vector<int> vertices;
};
using TurnAxis = std::function<Vec3(size_t skin, std::span<const Mat4> world)>;
ArmClearanceResult turn_skins_above_floor(const Character& character, std::span<const TurnedSkin> skins,
                                          const TurnAxis& axis, const Clip& clip, std::span<const double> times,
                                          const ArmClearanceOptions& options = {});

// Turns each arm's upper arm outward where its skin goes under the floor.
// The clip's upper-arm tracks are keyed at `times` (ascending); other tracks
// are copied. Poses use the clip on top of the neutral (bind) locals.
ArmClearanceResult keep_arms_above_floor(const Character& character, std::span<const ArmSkin> arms, const Clip& clip,
                                         std::span<const double> times, const ArmClearanceOptions& options = {});

}  // namespace rig
