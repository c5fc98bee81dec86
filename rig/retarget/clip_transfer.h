// Clip transfer pipeline (SPEC §5-6): retarget a source clip onto a target
// character, lift the body off the floor where it sinks (tail ignored), then
// pin the feet in their contact phases.
//
//   [the target is the clip's own rig (own_rig_joints): the clip copied as
//    authored (copy_own_rig_clip), and nothing below runs]
//   [drop a leading bind-pose key: CMU FBX clips start with one T-pose frame]
//   retarget (from calibrations, private copies)
//     -> floor alignment: the source's own floor onto the target's floor
//        (every hips move also moves feet hung outside their leg, so they
//        stay where their shin ends)
//     -> contact phases per foot: the source's feet on their own floor
//        (contacts_from_source), else detect_leg_contacts on this pre-lift clip
//     -> arms: an upper arm whose skin would go under the floor turns
//        outward at the shoulder (keep_arms_above_floor), so grounding
//        never lifts the body for a hand
//     -> body grounding: hips world y += ground_lift(t); a foot's skin is in
//        E (left to the limb solver) only inside its contact phases
//     -> the whole body above the floor: grounding again with every body
//        vertex (tail skin and carried objects aside) in S, a small sink
//        allowed (grounding's S misses skin that is low only when turned:
//        a cartwheel's head and hands)
//     -> limb reconciliation: pins those same phases; thigh/shin/foot only,
//        hips untouched
//     -> the whole body again, the pinned feet counted: where some vertex
//        is still more than the tolerance under the floor, the hips rise
//     -> tails turned up out of the floor
//     [every body vertex measured against the floor at every key: under_floor]
//
// Plain data in and out; no exceptions cross this boundary. Lengths are in
// the target's model units, times in seconds, positions in bind space (Y up).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "rig/retarget/clearance/arm_clearance.h"
#include "rig/retarget/clip_keys.h"
#include "rig/retarget/clearance/body_floor.h"
#include "rig/retarget/clearance/tail_clearance.h"
#include "rig/retarget/clearance/elbow_bend.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/model/status.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/model.h"
#include "rig/retarget/own_rig.h"
#include "rig/retarget/retarget.h"

namespace rig {

struct TransferOptions {
  double sample_rate = 30.0;  // Hz; keys of the output clip
  // Start after the first key when that key is the source's bind pose and the
  // next key jumps away from it (a T-pose frame before the motion).
  bool skip_leading_bind_pose = true;
  // Evaluate the source clip as a player shows it: a channel it leaves
  // alone holds the source file's node value (Skeleton::stored_local), not
  // the bind pose. Only the source's nodes are read; the target's stored
  // (live) pose never is (SPEC §6).
  bool hold_source_node_pose = true;
  // Joints the roles leave out follow the source's joint of their name
  // (rig::map_joints_by_name: a rig family's hip-hike, tail, finger or ear
  // bones, a neck of several joints); false leaves them in their bind pose.
  bool joints_by_name = true;
  // Mocap floors rarely sit where the source's bind pose puts its feet: the
  // retargeted stance feet then hover or sink by a constant. Shift the hips
  // (world y, every key) so that this quantile of the stance soles' heights
  // lands on the target's floor. A high quantile: after it, stance feet sink
  // rather than hover, and limb IK can always lift a foot by bending the knee
  // but cannot stretch a straight leg down to a floor below it.
  bool align_floor = true;
  double floor_quantile = 0.9;
  // Stance phases from the source's own feet (detect_own_floor_contacts on
  // the source clip, mapped leg for leg by side) instead of the retargeted
  // target's: floor alignment then puts floor_quantile of the target's sole
  // heights in those phases on the floor (never lowering the hips less than
  // every pinned foot's reach needs), the limbs pin those phases plus the
  // target's own low-and-still samples and lift swinging soles out of the
  // floor (a long foot carrying a human toe-off dips its toes under it, and
  // the target-side test, "under the floor = contact", held the swinging
  // foot as stance; a big foot's swing dip kept floor alignment at 0 and the
  // stance feet hovering). Falls back to the target's own feet when some
  // leg has no source leg of its side or that source foot never stands.
  bool contacts_from_source = true;
  bool ground_body = true;    // apply rig::ground_lift to the hips
  GroundingOptions grounding; // count_tail etc. (measurement switch; body
                              // grounding only, never the floor alignment)
  bool reconcile_limbs = true;
  // Before body grounding: each upper arm turns outward where its skin
  // would go under the floor (rig::keep_arms_above_floor; long cartoon arms
  // on a human swing).
  bool arms_above_floor = true;
  ArmClearanceOptions arms;  // floor_y is filled by transfer_clip
  // Last, on the grounded clip: each tail's first bone turns up where the
  // tail's skin would go under the floor, or under its own bind height
  // (rig::keep_tails_above_floor; grounding ignores tail skin).
  bool tails_above_floor = true;
  ArmClearanceOptions tails;  // floor_y is filled by transfer_clip
  // The whole body above the floor. Grounding's support points are each
  // joint's lowest in bind: a body turned over (a cartwheel's head and
  // hands, a bow's fingertips) goes under the floor where none of them is.
  // So, after body grounding, grounding runs again with every body vertex in
  // S and a sink of body_floor_tolerance x H (model height) allowed, the
  // stance feet still left to the limb solver, which pins them afterwards;
  // then, after the feet are pinned, every body vertex (body_floor_vertices:
  // tail skin and carried objects left out, as grounding leaves them; the
  // pinned feet counted) that is still more than the tolerance under the
  // floor raises the hips by the excess, smoothed as grounding's lift
  // (body_floor_lift). A clip that never sinks that far is left exactly as
  // it was.
  bool body_above_floor = true;
  double body_floor_tolerance = 0.01;  // x H
  // Before the arms step: each elbow bends no further than its skin takes
  // (rig::limit_elbow_bends; a human run's elbows fold a low-poly sleeve).
  bool elbows_within_skin = true;
  ElbowBendOptions elbows;
  // Contact thresholds and blend time; floor_y and sole_points are filled by
  // transfer_clip (floor: f_body; sole points from the target's mesh).
  LimbContactOptions limbs;
  // Sole points from the target's mesh (mesh_sole_points): the band above
  // each foot/toe joint's lowest vertex, x leg length, and at most this many
  // points per joint. High: thinning can drop the vertex that ends lowest
  // (24 left the fixture mouse's foot 2 mm under the floor); the cost is a
  // few hundred skinned points per sample.
  double sole_band = 0.03;
  int sole_points_per_joint = 1000;
  // How the legs follow the source. kRotation: world rotations copied
  // (rig::retarget). kAnkle: each target ankle follows the source ankle's
  // motion relative to its thigh (scaled by leg length) by two-bone IK, the
  // foot keeping its copied world rotation. kAuto: kAnkle when a target leg
  // has a detached foot or its bind straightness (hip-ankle distance over
  // chain length) differs from the source leg's by more than
  // straightness_tolerance, else kRotation (one such leg drives every leg
  // by ankle). kAutoQuadrupeds: kAuto when source and target walk on four
  // legs, else kRotation.
  enum class LegDrive { kAuto, kRotation, kAnkle, kAutoQuadrupeds };
  // Default kAutoQuadrupeds (issue 11). Quadruped legs differ in their
  // segments and bind pose (a wolf's hock-shaped hind leg, a rat's folded
  // haunch on a detached paw, a fox's straight legs): copied bone for bone,
  // the rotations swing the wrong segment (the wolf's walk onto the rat: its
  // thighs over 93 deg, 2.6 % of body edge samples torn; by ankle 34 deg,
  // 1.1 %). Rigs with detached paws take it even from their own clips (the
  // wolf's walk onto the wolf: 1.91 -> 1.52 % torn, its artist's 1.51 %). A
  // biped's thigh, shin and foot match the source's; on the Trex walk kAnkle
  // left stance soles further from the floor (0.45 vs 0.29 units of 15; on
  // run.bvh 8.6 cm off, 1.7 % torn).
  LegDrive legs_by_ankle = LegDrive::kAutoQuadrupeds;
  double straightness_tolerance = 0.1;
  // A clip made for the target's own rig (rig::own_rig_joints: the same
  // joint names, hierarchy and bind pose; a grown or stripped tail aside) is
  // copied as authored (rig::copy_own_rig_clip) and nothing after it runs:
  // no leading-key trim, floor alignment, arm, elbow, grounding or foot
  // step. The artist's clip on the artist's rig is the reference the rest of
  // the pipeline approximates (the T-Rex's own walk, retargeted, sank 2 m).
  bool copy_own_rig_clips = true;
  OwnRigOptions own_rig;
};

// What a transfer could map and how well the feet ended up (for gates and
// reports; filled whenever the status is ok, partly on errors).
struct TransferDiagnostics {
  int source_legs = 0;   // joints with part kThigh on the source
  int target_legs = 0;   // ... on the target
  int legs_pinned = 0;   // target legs (thigh, shin, foot) the limb solver pinned
  int legs_by_ankle = 0; // target legs driven by their ankles (TransferOptions::legs_by_ankle)
  int joints_by_name = 0; // joints the roles leave out that follow the source's of their name (map_joints_by_name)
  int stance_keys = 0;   // samples in contact, summed over the feet
  // Largest |lowest sole point - floor| at a stance sample, model units.
  double max_stance_foot_error = 0.0;
  double max_lift = 0.0;  // largest body grounding lift, model units
  double max_arm_turn = 0.0;  // largest outward arm turn keeping the arms above the floor, rad
  int arm_turn_keys = 0;      // samples where some arm was turned
  double max_elbow_cut = 0.0; // largest elbow bend removed so the skin holds, rad
  int elbow_cut_keys = 0;     // samples where some elbow bend was limited
  double max_tail_turn = 0.0; // largest upward tail turn keeping the tails above the floor, rad
  int tail_turn_keys = 0;     // samples where some tail was turned
  double max_body_floor_lift = 0.0;  // largest lift of the whole-body floor step, model units
  int body_floor_lift_keys = 0;      // samples it lifted
  // Largest depth under the floor the whole-body steps found before their
  // lifts (the first leaves legs in contact to the limb solver), model units.
  double max_body_floor_depth_before = 0.0;
  // Target joints copied as authored (TransferOptions::copy_own_rig_clips:
  // the target is the clip's own rig); 0 when the clip was retargeted.
  int own_rig_joints = 0;
};

struct TransferResult {
  Status status;
  TransferDiagnostics diagnostics;
  Clip clip;                  // on the target's joints; empty on error
  std::vector<double> times;  // the output keys (seconds)
  double start_time = 0.0;    // seconds of the source clip skipped at its start
  // Subtracted from the hips' world y at every key by floor alignment
  // (model units; positive = the retargeted clip stood above the floor).
  double floor_alignment = 0.0;
  // Per time: lift added to the hips' world y by body grounding (model units).
  std::vector<double> lift;
  // Bind-space floor the feet are aligned and pinned to: f_body = min bind y
  // of the support points S \ T, also with count_tail (that switch changes
  // only body grounding's minima), model units.
  double floor_y = 0.0;
  // Limb reconciliation per foot (empty when disabled or no legs found).
  std::vector<FootReport> feet;
  std::string limbs_note;     // why limbs were not reconciled, if so
  // Per time: lift added to the hips' world y by the whole-body floor steps
  // (TransferOptions::body_above_floor, both passes; zeros where they did
  // nothing).
  std::vector<double> body_floor_lift;
  // The output clip's body (body_floor_vertices) against floor_y at every
  // key, after every step; also for a clip copied as authored. Its
  // max_depth / height is how far under the floor the body goes, as a
  // fraction of the model height.
  BodyFloorDepth under_floor;
  double height = 0.0;  // the target's model height H (TargetSupport::height), model units
};

// `source` owns `clip`; the calibrations must come from `source.skeleton` and
// `target.skeleton` (sizes are checked). A mismatch, or a clip that maps no
// joint, returns an error status and an empty clip. So does a clip that
// cannot be mapped leg for leg: no legs on the source or the target, or
// different leg counts (a biped clip onto a quadruped); the message is one
// line saying which. Legs whose feet hang elsewhere in the tree (under the
// root, like IK targets) are animated from the source's legs and their feet
// placed where the shin puts them, then pinned in stance. A clip made for the
// target's own rig is copied as authored instead (copy_own_rig_clips): its
// keys as they are (times: the longest track's), no lift, no feet pinned.
TransferResult transfer_clip(const Character& source, const Clip& clip, const Calibration& source_cal,
                             const Character& target, const Calibration& target_cal,
                             const TransferOptions& options = {});

// What transfer_clip reads off the target's mesh alone (its support points,
// floor, sole points and arm skin): the same for every clip, so a caller
// transferring many clips onto one character prepares it once. Built for the
// options' grounding, sole_band, sole_points_per_joint, arms_above_floor and
// elbows_within_skin (arm skin is gathered only when one of those is on).
struct TargetSupport {
  SkinGroups groups;
  SupportPoints support;                   // sample_support(target, options.grounding)
  double floor_y = 0.0;                    // reference_floor with count_tail off
  std::vector<std::vector<SolePoint>> soles;  // per find_legs leg
  std::vector<ArmSkin> arms;                  // arm_skins, what the hands carry included
  std::vector<ElbowSkin> elbows;              // elbow_skins of those arms (elbows_within_skin)
  std::vector<TailSkin> tails;                // tail_skins (tails_above_floor)
  std::vector<int> body;                      // body_floor_vertices (grounding's T and carried objects aside)
  // sample_support with every vertex of every joint (body_above_floor):
  // the whole-body grounding pass before the feet are pinned.
  SupportPoints whole_body;
  // index_lowest_skin of `body` and of whole_body.vertices: every clip's
  // floor steps query the same skin (built once, not at each step).
  LowestSkinIndex body_index, whole_body_index;
  double height = 0.0;                        // model_height of the target's mesh (0 without one)
  // several_figures_reason of the target's skinned_figures: non-empty when
  // the file holds more than one character (transfer_clip refuses it).
  std::string several_characters;
};
TargetSupport prepare_target_support(const Character& target, const Calibration& target_cal,
                                     const TransferOptions& options = {});
// Whether a support prepared with grounding options `prepared_for` is the one
// prepare_target_support gives for `g` (every other option the same): of
// the grounding it reads points_per_joint, foot_extremes,
// contact_shin_fraction, tail_joints and tail_vertices; count_tail,
// allowed_sink, smoothing_radius_s and leg_contact change only the grounding
// itself. A caller grounding one clip several ways prepares once.
bool support_serves(const GroundingOptions& prepared_for, const GroundingOptions& g);
// The same transfer with the target prepared once; `prepared` must come from
// this target, calibration and options (grounding, sole_band,
// sole_points_per_joint).
TransferResult transfer_clip(const Character& source, const Clip& clip, const Calibration& source_cal,
                             const Character& target, const Calibration& target_cal, const TargetSupport& prepared,
                             const TransferOptions& options = {});

// transfer_clip once per (prepared[i], groundings[i]) with `options`'
// grounding replaced: the same results, the steps before body grounding
// (retarget, floor alignment, elbows, arms: they read no grounding option)
// run once for the supports that give them the same inputs (floor, soles,
// arm and elbow skin). For a caller comparing groundings of one clip.
std::vector<TransferResult> transfer_clip_groundings(const Character& source, const Clip& clip,
                                                     const Calibration& source_cal, const Character& target,
                                                     const Calibration& target_cal,
                                                     std::span<const TargetSupport* const> prepared,
                                                     std::span<const GroundingOptions> groundings,
                                                     const TransferOptions& options = {});

// f_body of SPEC §5 for `character` (min bind y of S \ T, or of S with
// count_tail); without a skinned mesh, the lowest bind y of the foot and toe
// joints (or of all joints). Model units.
double reference_floor(const Character& character, const GroundingOptions& options);
// The same from support points sampled once (empty: no skinned mesh).
double reference_floor(const Character& character, const SupportPoints& support, const GroundingOptions& options);

}  // namespace rig
