// Limb reconciliation (SPEC §5): foot contact phases and analytic two-bone
// leg IK that pins the feet to the floor while they support the body.
//
// Contract: only the thigh, shin and foot joints of each leg are changed;
// the hips track (and every other joint) is copied through untouched, so the
// body grounding's pelvis lift stays exactly what it computed.
//
// Units: lengths in the skeleton's model units, times in seconds; Y up;
// positions in bind (scene) space.
#pragma once

#include <span>
#include <vector>

#include "rig/anatomy/legs.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/model/status.h"
#include "rig/model/model.h"

namespace rig {

// ---------------------------------------------------------------------------
// Analytic two-bone IK.

struct TwoBoneSolution {
  // World-space rotations to pre-multiply onto the upper and lower bone's
  // world rotation (each about its own head joint): upper moves b and c,
  // lower is the lower bone's total change (it already includes `upper`).
  Quat upper = Quat::Identity();
  Quat lower = Quat::Identity();
  Vec3 middle = Vec3::Zero();  // new middle joint (knee) position
  Vec3 end = Vec3::Zero();     // new end joint (ankle) position
  bool reached = false;        // end == target (up to rounding)
};

// Chain a (hip) -> b (knee) -> c (ankle), target for c. Bone lengths |b-a|
// and |c-b| are kept. The knee bends in the plane spanned by the new a->c
// line and the current knee offset from the a->c line (so a target inside
// the current knee plane keeps that plane); when the chain is straight,
// `pole` (a direction, need not be unit) says where the knee points. A target
// out of reach gets the chain pointed at it, fully extended (or folded).
TwoBoneSolution solve_two_bone(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& target,
                               const Vec3& pole);

// ---------------------------------------------------------------------------
// Legs and their sole points.


struct HingeLegSolution {
  Quat thigh = Quat::Identity(), shin = Quat::Identity();  // new world rotations
  Vec3 middle = Vec3::Zero(), end = Vec3::Zero();          // new knee and ankle
  bool reached = false;
};

// A leg with a bent bind knee (bind_knee_offset) solved as a hinge: hip a,
// knee b, ankle c (world) with the ankle at `target`, the knee bending
// towards the clip's knee where that clearly bends to `side` (within 60 deg
// of it, at least kBentKneeFraction of the thigh off the hip->ankle line),
// towards `side` where it does not, blended in between. Each bone's world
// rotation is its bind one turned hinge axis onto hinge axis, so the thigh's
// twist follows the knee and a near-straight knee crossing the line never
// flips the leg. A leg with a straight bind knee gets its bind rotations.
HingeLegSolution solve_hinge_leg(const Skeleton& skeleton, const Leg& leg, const Vec3& a, const Vec3& b, const Vec3& c,
                                 const Vec3& target, const Vec3& side);


// A sole point; bind-space position. Rigidly attached to `joint`, or, when
// `influences` is non-empty, skinned by them (linear blend, like the mesh).
struct SolePoint {
  int joint = -1;
  Vec3 bind_position = Vec3::Zero();
  std::vector<Influence> influences;
  bool operator==(const SolePoint&) const = default;
};

// Without a mesh: the foot and toe joints projected onto the floor plane
// y = floor_y (heel and ball).
std::vector<SolePoint> joint_sole_points(const Skeleton& skeleton, const Leg& leg, double floor_y);
// With a skinned mesh: the sole, heel to toe. Per foot/toe joint, the
// vertices it dominates whose bind y is within `band` (model units) of the
// lowest of them, duplicates (seams) removed, thinned evenly (in x then z
// order) to at most `per_joint`, plus the joint's bind-extreme vertex along
// each direction of {-1,0,1}^3 with dy <= 0 (a pointed toe's tip, a raised
// heel's back); each keeps the vertex's skin weights, so a heel blended with
// the shin is pinned where the mesh draws it. When the foot and toe joints
// dominate no vertex (a weightless IK foot; the shoe is skinned to the shin),
// the same from the shin's skin: its lowest band is the sole. Otherwise the
// shin's skin within shin_fraction x the leg length (thigh->shin->foot,
// bind) of the ankle is one more sole chosen the same way: it rides with the
// foot and, on a long digitigrade foot pitched heel-down, is the leg's
// lowest point. The default is body grounding's
// GroundingOptions::contact_shin_fraction, so the limb solver pins the same
// near-ankle skin grounding leaves to it. Falls back to the joint projection
// when the mesh gives none.
std::vector<SolePoint> mesh_sole_points(const Character& character, const Leg& leg, double floor_y, double band,
                                        int per_joint = 24,
                                        double shin_fraction = GroundingOptions{}.contact_shin_fraction);
// The same from groups built once (group_by_dominant_joint of `character`).
std::vector<SolePoint> mesh_sole_points(const Character& character, const SkinGroups& groups, const Leg& leg,
                                        double floor_y, double band, int per_joint = 24,
                                        double shin_fraction = GroundingOptions{}.contact_shin_fraction);

// ---------------------------------------------------------------------------
// Contact phases.

struct ContactOptions {
  // A sole point is "low" when its height above the floor is at most
  // max_height x leg length (negative heights count as low) ...
  double max_height = 0.06;
  // ... and "still" when its horizontal speed is at most max_speed x leg
  // length per second (stance ~0, swing ~3 leg lengths/s in a walk).
  double max_speed = 0.6;
  // Runs shorter than this are dropped (s), gaps up to max_gap are closed (s).
  double min_duration = 0.06;
  double max_gap = 0.04;
  // Under the floor counts as contact whatever the speed (a landing or a
  // toe-off still moving). Off: only low and still is contact (a long foot
  // whose swinging toes dip under the floor is not standing).
  bool under_floor_is_contact = true;
  // In place (a game walk whose standing feet slide back under still hips;
  // rig/retarget/in_place.h) stillness says nothing and low alone is standing:
  // within this x leg length, as the corpus reads a flat-foot stance. With
  // max_height's 6 % the lifting toe behind a straight leg counted, and
  // pinning it lowered the hips (the Cyberpunk's own walk onto itself: 6.4
  // cm below its artist's, knees bent to match; at 2 % 0.9 cm).
  double in_place_max_height = 0.02;
};

struct ContactPhase {
  int first = 0, last = 0;  // sample indices, inclusive
};

// Contact phases of one foot from its sole point trajectories:
// points[i][k] = world position of sole point i at times[k]. A sample is in
// contact when some sole point is low and still there, or under the floor
// (whatever its speed: a landing or toe-off that is still moving). Runs
// shorter than min_duration are dropped unless they touch the first or last
// sample (cut by the clip). Times ascending.
std::vector<ContactPhase> detect_contact_phases(std::span<const double> times,
                                                const std::vector<std::vector<Vec3>>& points,
                                                double floor_y, double leg_length,
                                                const ContactOptions& options);

// ---------------------------------------------------------------------------
// Reconciliation of a clip.

struct LimbContactOptions {
  ContactOptions contact;
  double floor_y = 0.0;     // bind-space floor height, model units
  double blend_time = 0.15; // s: the pin offset fades in/out over this time
                            // outside each phase (smoothstep), so no pops
  // Per leg (same order as find_legs), sole points; missing or empty entries
  // use joint_sole_points.
  std::vector<std::vector<SolePoint>> sole_points;
  // When true, reconcile_limbs pins exactly these phases (per leg, find_legs
  // order; a missing entry = no contact) instead of detecting them on the
  // clip it is given: rig::transfer_clip detects them before body grounding
  // (detect_leg_contacts on the pre-lift clip), so the feet grounding leaves
  // to the limb solver (E) are the feet it pins.
  bool phases_given = false;
  std::vector<std::vector<ContactPhase>> phases;
  // Outside the phases, a sole under the floor is lifted onto it (the knee
  // bends; re-aimed while the lowest sole point, which may be shin skin by
  // the ankle, is still under it), so the limb solver, not body grounding,
  // keeps feet out of the floor.
  bool lift_swing_soles = false;
};

struct FootReport {
  Leg leg;
  double leg_length = 0.0;             // thigh->shin->foot in bind, model units
  std::vector<ContactPhase> phases;
  std::vector<bool> contact;           // per sample, inside a phase
  std::vector<double> weight;          // per sample, pin weight 0..1 (blend)
  std::vector<double> clearance_before;  // per sample, lowest sole point - floor
  std::vector<double> clearance_after;   // same after IK (rigid sole points)
  int unreached = 0;                   // samples whose IK target was out of reach
  double max_correction = 0.0;         // largest |pin offset| applied, model units
};

struct LimbContactResult {
  Status status;
  Clip clip;                  // the input clip with new thigh/shin/foot rotation tracks
  std::vector<FootReport> feet;
};

// The lowest sole point's height above options.floor_y at the samples where
// a foot stands, found with the height test taken relative to that foot's
// own lowest level over the clip (so a clip whose floor sits above or below
// the target's floor still shows its stance). Both feet, sample order.
// Used to align the source's floor with the target's; empty without legs.
std::vector<double> stance_clearances(const Skeleton& skeleton, const Clip& clip, std::span<const double> times,
                                      const LimbContactOptions& options);

// Per leg (find_legs order): the contact phases of its foot on `clip`
// (evaluated on the neutral locals at `times`) against options.floor_y, as
// reconcile_limbs detects them. Empty without legs or with bad times.
std::vector<std::vector<ContactPhase>> detect_leg_contacts(const Skeleton& skeleton, const Clip& clip,
                                                           std::span<const double> times,
                                                           const LimbContactOptions& options);

// Per leg (find_legs order), per sample: the lowest sole point's height
// above options.floor_y on `clip` at `times`. Empty without legs.
std::vector<std::vector<double>> sole_clearances(const Skeleton& skeleton, const Clip& clip,
                                                 std::span<const double> times,
                                                 const LimbContactOptions& options);

// Per leg (find_legs order): contact phases against the clip's own floor,
// the lowest level a sole point rests at (horizontally still; the lowest
// level reached when none ever is): a toe that dips under the stand while
// it moves does not set it. For a source clip whose feet were
// captured on a floor (mocap floors rarely sit at the bind pose's feet, and
// the two feet's markers not at one height): its stance is where the
// captured foot stood, whatever shape the target's feet are. A sample is in
// contact only when low and still (options.contact.under_floor_is_contact
// is not used: under the resting floor a sole is dipping, not standing).
// Empty without legs or with bad times.
std::vector<std::vector<ContactPhase>> detect_own_floor_contacts(const Skeleton& skeleton, const Clip& clip,
                                                                 std::span<const double> times,
                                                                 const LimbContactOptions& options);

// Per sample of n: true inside one of `phases`.
std::vector<bool> contact_mask(const std::vector<ContactPhase>& phases, int n);

// Detects contact phases per foot on `clip` (or takes options.phases) (evaluated on top of the
// skeleton's neutral locals at `times`) and pins each foot's lowest sole
// point to the floor in them with two-bone IK (inside a phase, re-aimed by
// the residual up to eight times so blended sole skin, which the shin also
// moves, lands on the floor too; ~10x closer per pass); the foot keeps its animated
// world rotation. Thigh, shin and foot rotation tracks are rewritten with one
// linear key per time; nothing else changes. No legs, or bad times, gives an
// error status and the input clip unchanged.
LimbContactResult reconcile_limbs(const Skeleton& skeleton, const Clip& clip,
                                  std::span<const double> times, const LimbContactOptions& options);

}  // namespace rig
