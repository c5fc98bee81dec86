#include "rig/retarget/clip_transfer.h"

#include <algorithm>
#include <optional>
#include <cmath>
#include <limits>
#include <string>

#include "rig/retarget/clip_transfer_legs.h"
#include "rig/retarget/clip_transfer_stages.h"
#include "rig/retarget/own_rig.h"
#include "rig/model/pose.h"
#include "rig/retarget/target_support.h"

namespace rig {
namespace {

// Diagnostics of a per-limb, per-key change (an arm turn, an elbow cut): the
// largest over all, and the keys where some limb changed.
void add_largest_per_key(const std::vector<std::vector<double>>& per_limb, size_t keys, double& largest, int& changed) {
  for (size_t k = 0; k < keys; ++k) {
    double most = 0.0;
    for (const std::vector<double>& v : per_limb) most = std::max(most, k < v.size() ? v[k] : 0.0);
    largest = std::max(largest, most);
    changed += most > 0.0 ? 1 : 0;
  }
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  const size_t i = static_cast<size_t>(pos);
  const double f = pos - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

// The runs of true samples of a mask, as phases.
std::vector<ContactPhase> phases_of(const std::vector<bool>& mask) {
  std::vector<ContactPhase> out;
  for (int k = 0; k < static_cast<int>(mask.size()); ++k) {
    if (!mask[k]) continue;
    if (!out.empty() && out.back().last == k - 1) out.back().last = k;
    else out.push_back({k, k});
  }
  return out;
}

// Per target leg (find_legs order): the contact phases of the source leg on
// the same side (and front or hind), detected on the source clip against its
// own floor. Empty when some target leg has no such source leg, or that leg
// never stands.
std::vector<std::vector<ContactPhase>> source_contacts(const Character& source, const Clip& clip,
                                                       const Skeleton& target, std::span<const double> times,
                                                       const ContactOptions& contact) {
  LimbContactOptions so;
  so.contact = contact;
  // The captured feet stood on the source's own floor: a short low and still
  // run is a real stance (a run's, at 30 Hz, may be two samples), not noise.
  so.contact.min_duration = 0.0;
  so.floor_y = reference_floor(source, SupportPoints{}, GroundingOptions{});  // joint soles: a relative floor
  const std::vector<std::vector<ContactPhase>> phases = detect_own_floor_contacts(source.skeleton, clip, times, so);
  const std::vector<Leg> from = find_legs(source.skeleton), onto = find_legs(target);
  if (phases.size() != from.size() || onto.size() != from.size()) return {};
  std::vector<std::vector<ContactPhase>> out;
  for (const Leg& d : onto) {
    const auto s = std::find_if(from.begin(), from.end(),
                                [&](const Leg& l) { return l.side == d.side && l.front == d.front; });
    if (s == from.end()) return {};
    out.push_back(phases[static_cast<size_t>(s - from.begin())]);
    // A source foot that never stands (an acrobatic clip whose feet slide or
    // stay in the air) says nothing about the target's: not trusted.
    if (out.back().empty()) return {};
  }
  return out;
}

// Per leg: the samples in a phase of `a` or of `b` (legs past b's: a's).
std::vector<std::vector<ContactPhase>> union_phases(const std::vector<std::vector<ContactPhase>>& a,
                                                    const std::vector<std::vector<ContactPhase>>& b, int n) {
  std::vector<std::vector<ContactPhase>> out;
  for (size_t li = 0; li < a.size(); ++li) {
    std::vector<bool> mask = contact_mask(a[li], n);
    if (li < b.size())
      for (const ContactPhase& ph : b[li])
        for (int k = std::max(0, ph.first); k <= std::min(ph.last, n - 1); ++k) mask[static_cast<size_t>(k)] = true;
    out.push_back(phases_of(mask));
  }
  return out;
}

}  // namespace

TransferResult transfer_clip(const Character& source, const Clip& clip, const Calibration& source_cal,
                             const Character& target, const Calibration& target_cal, const TransferOptions& opt) {
  if (source.skeleton.size() != source_cal.size() || target.skeleton.size() != target_cal.size())
    return transfer_clip(source, clip, source_cal, target, target_cal, TargetSupport{}, opt);  // the error
  return transfer_clip(source, clip, source_cal, target, target_cal, prepare_target_support(target, target_cal, opt),
                       opt);
}

namespace {

// The steps of transfer_clip, in the order it runs them.

// A failed transfer: the status says why, the clip is empty.
TransferResult failed(TransferResult r, Status::Code code, std::string message) {
  r.status = Status::Error(code, std::move(message));
  r.clip = Clip{};
  return r;
}

// Checks the inputs: why this clip cannot go onto this target, or ok; counts
// the legs of both skeletons into `diagnostics` on the way.
Status check_inputs(const Character& source, const Calibration& source_cal, const Character& target,
                    const Calibration& target_cal, const TargetSupport& prepared, const TransferOptions& opt,
                    TransferDiagnostics& diagnostics) {
  auto error = [](std::string message) { return Status::Error(Status::Code::kBadData, std::move(message)); };
  if (source.skeleton.size() != source_cal.size() || target.skeleton.size() != target_cal.size())
    return error("transfer: calibration does not match its skeleton");
  if (!support_fits(prepared, target)) return error("transfer: the target support was prepared for another character");
  if (!(opt.sample_rate > 0 && std::isfinite(opt.sample_rate)))
    return error("transfer: sample rate must be positive and finite");
  if (source_cal.hips < 0 || target_cal.hips < 0)
    return error(std::string("transfer: no hips joint on the ") + (source_cal.hips < 0 ? "source" : "target"));
  // One character per target: a file holding a rider and its horse would
  // have its legs paired across both (read once, prepare_target_support).
  if (!prepared.several_characters.empty())
    return error("transfer: the target holds " + prepared.several_characters +
                 ": retarget onto one character per file");
  for (const Role& ro : source_cal.roles) diagnostics.source_legs += ro.part == BodyPart::kThigh ? 1 : 0;
  for (const Role& ro : target_cal.roles) diagnostics.target_legs += ro.part == BodyPart::kThigh ? 1 : 0;
  if (diagnostics.target_legs == 0) return error("transfer: no legs found on the target");
  if (diagnostics.source_legs == 0) return error("transfer: no legs found in the source clip's skeleton");
  if (diagnostics.source_legs != diagnostics.target_legs)
    return error("transfer: the source has " + std::to_string(diagnostics.source_legs) + " legs, the target " +
                 std::to_string(diagnostics.target_legs) + ": cannot map the clip leg for leg");
  if (map_joints_by_role(source_cal, target_cal).size() < 2)
    return error("transfer: source and target share no body roles besides the hips");
  return Status::Ok();
}

// Copies a clip made for the target's own rig as authored (`same`: the
// source joint of each target joint): its keys, no lift, no feet pinned.
TransferResult copy_as_authored(TransferResult r, const Skeleton& source, const Clip& clip, const Character& target,
                                const std::vector<int>& same, const TargetSupport& prepared) {
  r.clip = copy_own_rig_clip(source, clip, target.skeleton, same);
  if (r.clip.tracks.empty()) return failed(std::move(r), Status::Code::kBadData, "transfer: copying the clip gave no tracks");
  r.times = key_times(r.clip);
  r.lift.assign(r.times.size(), 0.0);
  r.body_floor_lift.assign(r.times.size(), 0.0);
  r.floor_y = prepared.floor_y;
  r.height = prepared.height;
  r.under_floor = body_under_floor(target, prepared.body_index, r.clip, r.times, r.floor_y);
  r.diagnostics.own_rig_joints = static_cast<int>(std::count_if(same.begin(), same.end(), [](int s) { return s >= 0; }));
  r.limbs_note = "the clip's own rig: copied as authored";
  return r;
}

// Plays the clip as a player shows it (into `played`, or `clip` itself when
// not asked or nothing is animated): a channel it leaves alone holds the
// source file's node value (glTF and FBX players), not the bind pose. The
// T-Rex's walk leaves its spine's root joint alone, stored 25 deg off its
// bind: evaluated from the bind pose, its whole neck and head went half
// a metre off the artist's (a rig family's other member inherits that).
const Clip& as_played(const Skeleton& source, const Clip& clip, bool hold_source_node_pose, Clip& played) {
  if (!hold_source_node_pose) return clip;
  std::vector<int> itself(static_cast<size_t>(source.size()));
  for (int j = 0; j < source.size(); ++j) itself[static_cast<size_t>(j)] = j;
  played = copy_own_rig_clip(source, clip, source, itself);
  return played.tracks.empty() ? clip : played;
}

// Starts the played clip where its animation starts (into `trimmed`, or
// `played` itself): past a leading bind pose key, or at the first key;
// `start_time` is the source time skipped. Both are judged on the keys as
// authored (`clip`).
const Clip& from_animation_start(const Skeleton& source, const Clip& clip, const Clip& played,
                                 bool skip_leading_bind_pose, Clip& trimmed, double& start_time) {
  if (skip_leading_bind_pose && starts_with_bind_pose(source, clip)) {
    double t0 = 0, t1 = 0;
    first_two_keys(clip, t0, t1);
    start_time = t1;
    trimmed = trim_clip_start(played, t1);
    return trimmed;
  }
  if (const double t0 = first_key_time(clip); t0 > 0.0) {
    // Keys from t0 on (an exporter that kept the clip's frame range): the
    // time before them only holds the first pose; the clip starts at t0.
    start_time = t0;
    trimmed = trim_clip_start(played, t0);
    return trimmed;
  }
  return played;
}

// Chooses the leg drive: true when the target's legs follow the source's
// ankles rather than its rotations. Legs whose bind shape is not the
// source's (a detached foot, a bent digitigrade leg) do: with kAuto on any
// rig, with kAutoQuadrupeds (the default) on four legs only (legs pair by
// side and end; six would pair ambiguously). `legs`: either side's count.
bool legs_follow_ankles(const Skeleton& source, const Skeleton& target, const TransferOptions& opt, int legs) {
  bool by_ankle = opt.legs_by_ankle == TransferOptions::LegDrive::kAnkle;
  const bool quadrupeds = legs == 4;
  if (opt.legs_by_ankle == TransferOptions::LegDrive::kAuto ||
      (opt.legs_by_ankle == TransferOptions::LegDrive::kAutoQuadrupeds && quadrupeds)) {
    const std::vector<Leg> sl = find_legs(source), dl = find_legs(target);
    // A detached paw follows the source's own detached foot (retarget
    // keeps it as far off its shin as the source's is): only a source
    // whose foot rides on its shin leaves the paw to the ankle drive.
    for (const Leg& d : dl) {
      bool paired_detached = false;
      for (const Leg& s : sl)
        if (s.side == d.side && s.front == d.front) {
          paired_detached |= s.detached_foot;
          if (std::abs(straightness(target, d) - straightness(source, s)) > opt.straightness_tolerance)
            by_ankle = true;
        }
      by_ankle |= d.detached_foot && !paired_detached;
    }
  }
  return by_ankle;
}

// Aligns the floor to the source's stance: lowers the hips by the level the
// target's soles stand at in the source's contact phases (never less than
// every pinned foot can reach); returns that level, 0 without stance.
double align_floor_to_source_stance(const Skeleton& source, const Clip& input, const Skeleton& sk, int hips,
                                    const std::vector<double>& times,
                                    const std::vector<std::vector<ContactPhase>>& source_phases,
                                    const LimbContactOptions& lo, double floor_quantile, Clip& out) {
  const int n = static_cast<int>(times.size());
  // The clip posed once for the clearances, the resting contacts and the
  // reach below (AlignPose), where that gives what each would pose itself.
  const AlignPose posed = align_pose(sk, out, times, lo);
  const std::vector<std::vector<double>> clear = posed.shared ? posed.clearance : sole_clearances(sk, out, times, lo);
  std::vector<double> stance;
  for (size_t li = 0; li < clear.size() && li < source_phases.size(); ++li)
    for (const ContactPhase& ph : source_phases[li])
      for (int k = ph.first; k <= ph.last && k < static_cast<int>(clear[li].size()); ++k)
        stance.push_back(clear[li][k]);
  if (stance.empty()) return 0.0;
  const double level = quantile(stance, floor_quantile);
  // Never lowered less than the reach of every foot that will be pinned
  // allows: the source's stance and where the target's own foot then
  // stands low and still (below: the pinning's own test, on the floor
  // this level gives; a clip whose source feet slide while standing, the
  // target's straight legs at rest), or those legs would hover.
  LimbContactOptions resting = lo;
  resting.floor_y += level;
  resting.contact.under_floor_is_contact = false;
  const std::vector<std::vector<ContactPhase>> pinned =
      union_phases(source_phases, posed.shared ? posed.contacts(times, resting) : detect_leg_contacts(sk, out, times, resting), n);
  const double reach = source_leg_reach(source, input, times);
  const double alignment =
      std::max(level, posed.shared ? lowest_reaching_alignment(sk, posed.world, pinned, clear, reach)
                                   : lowest_reaching_alignment(sk, out, times, pinned, clear, reach));
  add_hips_world_y(sk, hips, times, std::vector<double>(n, -alignment), out);
  return alignment;
}

// Aligns the floor to the target's own stance (no source phases): lowers
// the hips by the level its soles stand at; returns it, 0 without stance.
double align_floor_to_target_stance(const Skeleton& sk, int hips, const std::vector<double>& times,
                                    const LimbContactOptions& lo, bool ankle_driven, double floor_quantile,
                                    Clip& out) {
  const int n = static_cast<int>(times.size());
  // Twice the pinning height band: the stance sole height itself varies by
  // a few cm with the foot's roll when source and target feet differ.
  LimbContactOptions wide = lo;
  wide.contact.max_height *= 2.0;
  const std::vector<double> stance = stance_clearances(sk, out, times, wide);
  if (stance.empty()) return 0.0;
  // Ankle-driven legs carry the source's sole roll on another foot
  // shape: their stance heights spread, and the median is the level.
  const double alignment = quantile(stance, ankle_driven ? 0.5 : floor_quantile);
  add_hips_world_y(sk, hips, times, std::vector<double>(n, -alignment), out);
  return alignment;
}

// Finds the contact phases to pin on the floor-aligned clip, before the
// lift: body grounding leaves a foot to the limb solver (E) only in these
// phases, and limb reconciliation pins exactly these (not phases re-detected
// after the lift). Detected also with reconcile_limbs off, so that switch
// never changes the hips track (the output then differs only in the legs).
std::vector<std::vector<ContactPhase>> phases_to_pin(const Skeleton& sk, const Clip& out,
                                                     const std::vector<double>& times, const LimbContactOptions& lo,
                                                     const std::vector<std::vector<ContactPhase>>& source_phases) {
  if (source_phases.empty()) return detect_leg_contacts(sk, out, times, lo);
  // The source's phases plus where the target's own foot is low and still
  // on the aligned clip (a stand the source's test missed: a landing foot
  // still settling at the clip's end); its swinging toes under the floor
  // are not stance.
  LimbContactOptions still = lo;
  still.contact.under_floor_is_contact = false;
  return union_phases(source_phases, detect_leg_contacts(sk, out, times, still), static_cast<int>(times.size()));
}

// Keeps elbows within their skin (limit_elbow_bends); before the arms clear
// the floor, as a less bent elbow moves the hand.
void keep_elbows_within_skin(const Character& target, const TargetSupport& prepared, const ElbowBendOptions& options,
                             const std::vector<double>& times, Clip& out, TransferDiagnostics& diagnostics) {
  ElbowBendResult er = limit_elbow_bends(target, prepared.elbows, out, times, options);
  out = std::move(er.clip);
  add_largest_per_key(er.removed, times.size(), diagnostics.max_elbow_cut, diagnostics.elbow_cut_keys);
}

// Turns arms out of the floor (keep_arms_above_floor); before body
// grounding, which would otherwise lift the whole body (stance legs then
// hovering) for a hand under it.
void keep_arms_above(const Character& target, const TargetSupport& prepared, ArmClearanceOptions ao, double floor_y,
                     const std::vector<double>& times, Clip& out, TransferDiagnostics& diagnostics) {
  ao.floor_y = floor_y;
  ArmClearanceResult ar = keep_arms_above_floor(target, prepared.arms, out, times, ao);
  out = std::move(ar.clip);
  add_largest_per_key(ar.angle, times.size(), diagnostics.max_arm_turn, diagnostics.arm_turn_keys);
}

// Grounding's options with E(t) from the phases: the feet in `phases` left
// to the limb solver (all of them at every sample with the source's phases:
// the solver then also lifts swinging soles out of the floor).
GroundingOptions with_contacts(GroundingOptions g, int n, const std::vector<std::vector<ContactPhase>>& phases,
                               bool phases_from_source) {
  g.leg_contact.clear();  // E(t) from the phases; no legs: E empty
  for (const std::vector<ContactPhase>& ph : phases)
    g.leg_contact.push_back(phases_from_source ? std::vector<bool>(n, true) : contact_mask(ph, n));
  if (g.leg_contact.empty()) g.leg_contact.push_back(std::vector<bool>(n, false));
  return g;
}

// Grounds the body: raises the hips' world y by the smoothed lift, the feet
// in `phases` left to the limb solver (with_contacts). Returns the lift per
// sample.
std::vector<double> ground_body(const Character& target, const TargetSupport& prepared, const GroundingOptions& g,
                                int hips, const std::vector<double>& times,
                                const std::vector<std::vector<ContactPhase>>& phases, bool phases_from_source,
                                Clip& out) {
  const int n = static_cast<int>(times.size());
  std::vector<double> lift =
      ground_lift(target, prepared.support, out, times, with_contacts(g, n, phases, phases_from_source));
  add_hips_world_y(target.skeleton, hips, times, lift, out);
  return lift;
}

// Pins the feet in their phases (reconcile_limbs) into `out` and `r.feet`;
// on failure leaves `out` as it was and says why in `r.limbs_note`.
void pin_feet(const Skeleton& sk, const std::vector<double>& times, const LimbContactOptions& lo, Clip& out,
              TransferResult& r) {
  LimbContactResult lr = reconcile_limbs(sk, out, times, lo);
  if (lr.status.ok()) {
    out = std::move(lr.clip);
    r.feet = std::move(lr.feet);
  } else {
    r.limbs_note = lr.status.message;
  }
}

// The whole body above the floor, before the feet are pinned: body
// grounding again with every body vertex in S (TargetSupport::whole_body),
// the same feet left to the limb solver, and a sink of `tolerance` allowed.
// Grounding's own S holds each joint's lowest bind points; this catches the
// skin that is low only when turned (a cartwheel's crown and palms). The
// limb solver then still puts the stance feet on the floor. Adds the lift
// to `total`; the depth it found (legs in contact aside) into the
// diagnostics.
void lift_whole_body(const Character& target, const TargetSupport& prepared, GroundingOptions g, double tolerance,
                     int hips, const std::vector<double>& times, const std::vector<std::vector<ContactPhase>>& phases,
                     bool phases_from_source, Clip& out, std::vector<double>& total,
                     TransferDiagnostics& diagnostics) {
  // The depth itself (no sink allowed), then the lift past the tolerance:
  // max(0, -tolerance - c) = max(0, depth - tolerance).
  g.allowed_sink = 0.0;
  std::vector<double> raw = ground_lift_raw(target, prepared.whole_body, prepared.whole_body_index, out, times,
                                            with_contacts(g, static_cast<int>(times.size()), phases, phases_from_source));
  bool any = false;
  for (double& d : raw) {
    diagnostics.max_body_floor_depth_before = std::max(diagnostics.max_body_floor_depth_before, d);
    d = std::max(0.0, d - tolerance);
    any |= d > 0.0;
  }
  // Nothing deeper than the tolerance: the clip is left exactly as it was.
  if (!any) return;
  const std::vector<double> lift = smooth_lift(raw, smoothing_samples(times, g.smoothing_radius_s));
  add_hips_world_y(target.skeleton, hips, times, lift, out);
  for (size_t k = 0; k < total.size() && k < lift.size(); ++k) total[k] += lift[k];
}

// The whole body above the floor, last check after the feet are pinned:
// where some body vertex (a pinned foot's included) is still more than
// `tolerance` under the floor, the hips rise by the excess, smoothed
// (body_floor_lift); the feet's reported clearances rise with them. Adds
// the lift to `total`; the depth it found into the diagnostics and `depth`.
// Returns whether it lifted (else `out` is as it was and `depth` is its
// body_under_floor: the last measurement need not pose every key again).
bool keep_body_above(const Character& target, const TargetSupport& prepared, double tolerance,
                     double smoothing_radius_s, int hips, double floor_y, const std::vector<double>& times, Clip& out,
                     std::vector<double>& total, std::vector<FootReport>& feet, TransferDiagnostics& diagnostics,
                     BodyFloorDepth& depth) {
  depth = body_under_floor(target, prepared.body_index, out, times, floor_y);
  diagnostics.max_body_floor_depth_before = std::max(diagnostics.max_body_floor_depth_before, depth.max_depth);
  const std::vector<double> lift = body_floor_lift(depth, times, tolerance, smoothing_radius_s);
  if (std::none_of(lift.begin(), lift.end(), [](double l) { return l > 0.0; })) return false;
  // Every foot rises with the hips (add_hips_world_y moves feet hung
  // outside their leg too).
  add_hips_world_y(target.skeleton, hips, times, lift, out);
  for (size_t k = 0; k < total.size() && k < lift.size(); ++k) total[k] += lift[k];
  for (FootReport& f : feet)
    for (size_t k = 0; k < f.clearance_after.size() && k < lift.size(); ++k) f.clearance_after[k] += lift[k];
  return true;
}

// Turns tails out of the floor on the final body (they follow the pelvis
// and the grounding left them out); no body or foot moves. Returns whether
// some tail turned (else `out` is as it was: keep_tails_above_floor copies
// the clip untouched when every angle is 0).
bool keep_tails_above(const Character& target, const TargetSupport& prepared, ArmClearanceOptions to, double floor_y,
                      const std::vector<double>& times, Clip& out, TransferDiagnostics& diagnostics) {
  to.floor_y = floor_y;
  ArmClearanceResult tr = keep_tails_above_floor(target, prepared.tails, out, times, to);
  out = std::move(tr.clip);
  add_largest_per_key(tr.angle, times.size(), diagnostics.max_tail_turn, diagnostics.tail_turn_keys);
  return std::any_of(tr.angle.begin(), tr.angle.end(),
                     [](const std::vector<double>& a) { return std::any_of(a.begin(), a.end(), [](double x) { return x != 0.0; }); });
}

// Sums up the lift and the pinned feet into r.diagnostics: the largest lift,
// the stance keys and the largest stance foot error, the legs ever pinned.
void add_lift_and_feet_diagnostics(TransferResult& r) {
  for (double l : r.lift) r.diagnostics.max_lift = std::max(r.diagnostics.max_lift, l);
  for (const FootReport& f : r.feet) {
    int stance = 0;
    for (size_t k = 0; k < f.contact.size() && k < f.clearance_after.size(); ++k)
      if (f.contact[k]) {
        ++stance;
        r.diagnostics.max_stance_foot_error = std::max(r.diagnostics.max_stance_foot_error, std::abs(f.clearance_after[k]));
      }
    r.diagnostics.stance_keys += stance;
    r.diagnostics.legs_pinned += stance > 0 ? 1 : 0;
  }
}

}  // namespace

namespace transfer_detail {

// The steps before body grounding; r.status not ok when the clip cannot be
// retargeted (or was copied as authored: `done`).
PosedClip pose_clip(const Character& source, const Clip& clip, const Calibration& source_cal, const Character& target,
                    const Calibration& target_cal, const TargetSupport& prepared, const TransferOptions& opt,
                    bool& done) {
  PosedClip p;
  TransferResult& r = p.r;
  done = true;
  r.status = check_inputs(source, source_cal, target, target_cal, prepared, opt, r.diagnostics);
  if (!r.status.ok()) return p;
  if (opt.copy_own_rig_clips) {
    const std::vector<int> same = own_rig_joints(source.skeleton, target.skeleton, opt.own_rig);
    if (!same.empty()) {
      r = copy_as_authored(std::move(r), source.skeleton, clip, target, same, prepared);
      return p;
    }
  }
  Clip played, trimmed;
  const Clip& as_shown = as_played(source.skeleton, clip, opt.hold_source_node_pose, played);
  const Clip& input =
      from_animation_start(source.skeleton, clip, as_shown, opt.skip_leading_bind_pose, trimmed, r.start_time);
  if (opt.joints_by_name)
    r.diagnostics.joints_by_name = static_cast<int>(
        map_joints_by_name(source_cal, target_cal, map_joints_by_role(source_cal, target_cal)).size());
  Clip& out = p.out;
  out = retarget(source, input, source_cal, target_cal, target.skeleton, opt.sample_rate, opt.joints_by_name);
  if (out.tracks.empty()) {
    r = failed(std::move(r), Status::Code::kBadData, "transfer: retargeting gave no tracks");
    return p;
  }
  r.times = key_times(out);
  // target_legs: the source's count too (checked equal above).
  if (legs_follow_ankles(source.skeleton, target.skeleton, opt, r.diagnostics.target_legs))
    r.diagnostics.legs_by_ankle = drive_legs_by_ankle(source, input, target.skeleton, r.times, out);
  const int n = static_cast<int>(r.times.size());
  // Floor and sole points of the target's feet (its mesh when it has one):
  // prepared once per character (prepare_target_support).
  r.floor_y = prepared.floor_y;
  r.lift.assign(n, 0.0);
  const Skeleton& sk = target.skeleton;
  const int hips = target_cal.hips;
  LimbContactOptions& lo = p.lo;
  lo = opt.limbs;
  lo.floor_y = r.floor_y;
  lo.sole_points = prepared.soles;

  // Stance from the source's own feet on its own floor, leg for leg: the
  // captured foot stood there, whatever shape the target's foot is (a long
  // foot carrying a human toe-off dips under the floor in swing, and the
  // target-side test would hold it as stance).
  std::vector<std::vector<ContactPhase>> source_phases;
  if (opt.contacts_from_source) source_phases = source_contacts(source, input, sk, r.times, opt.limbs.contact);
  const bool phases_from_source = p.phases_from_source = !source_phases.empty();

  // Floor alignment: the source's stance level onto the target's floor.
  if (opt.align_floor)
    r.floor_alignment =
        phases_from_source
            ? align_floor_to_source_stance(source.skeleton, input, sk, hips, r.times, source_phases, lo,
                                           opt.floor_quantile, out)
            : align_floor_to_target_stance(sk, hips, r.times, lo, r.diagnostics.legs_by_ankle > 0,
                                           opt.floor_quantile, out);
  lo.phases = phases_to_pin(sk, out, r.times, lo, source_phases);
  lo.phases_given = true;
  lo.lift_swing_soles = phases_from_source;

  if (opt.elbows_within_skin && !prepared.elbows.empty())
    keep_elbows_within_skin(target, prepared, opt.elbows, r.times, out, r.diagnostics);
  if (opt.arms_above_floor && !prepared.arms.empty())
    keep_arms_above(target, prepared, opt.arms, r.floor_y, r.times, out, r.diagnostics);
  done = false;
  return p;
}

// The steps from body grounding on, for one grounding (opt.grounding) and
// support (`prepared`, prepared as the one pose_clip read).
TransferResult finish_clip(PosedClip p, const Character& target, const Calibration& target_cal,
                           const TargetSupport& prepared, const TransferOptions& opt) {
  TransferResult& r = p.r;
  Clip& out = p.out;
  LimbContactOptions& lo = p.lo;
  const bool phases_from_source = p.phases_from_source;
  const int n = static_cast<int>(r.times.size());
  const Skeleton& sk = target.skeleton;
  const int hips = target_cal.hips;
  if (opt.ground_body && target.has_skin())
    r.lift = ground_body(target, prepared, opt.grounding, hips, r.times, lo.phases, phases_from_source, out);
  r.body_floor_lift.assign(n, 0.0);
  r.height = prepared.height;
  const double body_tolerance = opt.body_floor_tolerance * prepared.height;
  const bool whole_body = opt.body_above_floor && !prepared.body.empty();
  if (whole_body && !prepared.whole_body.vertices.empty())
    lift_whole_body(target, prepared, opt.grounding, body_tolerance, hips, r.times, lo.phases, phases_from_source,
                    out, r.body_floor_lift, r.diagnostics);
  if (opt.reconcile_limbs) pin_feet(sk, r.times, lo, out, r);
  // The body measured on `out` as it still is (none once the clip changes).
  std::optional<BodyFloorDepth> measured;
  if (whole_body) {
    BodyFloorDepth depth;
    if (!keep_body_above(target, prepared, body_tolerance, opt.grounding.smoothing_radius_s, hips, r.floor_y, r.times,
                         out, r.body_floor_lift, r.feet, r.diagnostics, depth))
      measured = std::move(depth);
  }
  for (double l : r.body_floor_lift) {
    r.diagnostics.max_body_floor_lift = std::max(r.diagnostics.max_body_floor_lift, l);
    r.diagnostics.body_floor_lift_keys += l > 0.0 ? 1 : 0;
  }
  if (opt.tails_above_floor && !prepared.tails.empty() &&
      keep_tails_above(target, prepared, opt.tails, r.floor_y, r.times, out, r.diagnostics))
    measured.reset();
  add_lift_and_feet_diagnostics(r);
  r.under_floor = measured ? std::move(*measured) : body_under_floor(target, prepared.body_index, out, r.times, r.floor_y);
  r.clip = std::move(out);
  return std::move(r);
}


Status check_transfer_inputs(const Character& source, const Calibration& source_cal, const Character& target,
                             const Calibration& target_cal, const TargetSupport& prepared, const TransferOptions& opt) {
  TransferDiagnostics unused;
  return check_inputs(source, source_cal, target, target_cal, prepared, opt, unused);
}

}  // namespace transfer_detail

using transfer_detail::PosedClip;
using transfer_detail::finish_clip;
using transfer_detail::pose_clip;


TransferResult transfer_clip(const Character& source, const Clip& clip, const Calibration& source_cal,
                             const Character& target, const Calibration& target_cal, const TargetSupport& prepared,
                             const TransferOptions& opt) {
  bool done = false;
  PosedClip p = pose_clip(source, clip, source_cal, target, target_cal, prepared, opt, done);
  if (done) return std::move(p.r);
  return finish_clip(std::move(p), target, target_cal, prepared, opt);
}

}  // namespace rig
