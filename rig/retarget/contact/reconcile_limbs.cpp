// Limb reconciliation: the per-sample leg IK pass that pins the feet in
// their contact phases (the solvers are in leg_ik.cpp, contact detection in
// limb_contact.cpp, the sole points followed in foot_track.h).
#include "rig/retarget/contact/limb_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rig/anatomy/facing.h"
#include "rig/anatomy/leg_geometry.h"
#include "rig/retarget/contact/foot_track.h"
#include "rig/model/pose.h"

namespace rig {
namespace {

using foot_track::FootTrack;
using foot_track::lowest_sole;
using foot_track::poses;
using foot_track::track_feet;
using leg_geometry::knee_offset;
using leg_geometry::position;
using leg_geometry::rotation;
using leg_geometry::smoothstep;

// The steps of reconcile_limbs: per leg its pin plan, then per sample the
// leg IK that follows it, then the tracks.

// One leg's pin, per sample.
struct LegPin {
  std::vector<double> offset;    // the lowest sole point's move (y), model units
  std::vector<char> onto_floor;  // a swing sole lifted onto the floor
  std::vector<double> unlifted;  // that sole's offset before the lift
};

// Picks the phases a leg is pinned in: options.phases[li] when given
// (indices past the samples dropped, the rest clamped), else those detected
// on its sole trajectories.
std::vector<ContactPhase> pinned_phases(const FootTrack& f, size_t li, std::span<const double> times,
                                        const LimbContactOptions& opt) {
  const int n = static_cast<int>(times.size());
  if (!opt.phases_given) return detect_contact_phases(times, f.traj, opt.floor_y, f.report.leg_length, opt.contact);
  std::vector<ContactPhase> phases = li < opt.phases.size() ? opt.phases[li] : std::vector<ContactPhase>{};
  std::erase_if(phases, [&](const ContactPhase& ph) { return ph.first < 0 || ph.first > ph.last || ph.first >= n; });
  for (ContactPhase& ph : phases) ph.last = std::min(ph.last, n - 1);
  return phases;
}

// Plans a leg's pin from rep.phases: the offset per sample, rep.contact and
// rep.weight (the pin weight).
LegPin plan_pin(FootReport& rep, std::span<const double> times, const LimbContactOptions& opt) {
  const int n = static_cast<int>(times.size());
  LegPin pin{std::vector<double>(n, 0.0), std::vector<char>(n, 0), std::vector<double>(n, 0.0)};
  rep.contact.assign(n, false);
  rep.weight.assign(n, 0.0);
  // Inside a phase the lowest sole point goes exactly onto the floor; around
  // it the offset of the nearest phase edge fades out.
  for (const ContactPhase& ph : rep.phases) {
    for (int k = 0; k < n; ++k) {
      double wt = 0.0, edge_offset = 0.0;
      if (k >= ph.first && k <= ph.last) {
        wt = 1.0;
        edge_offset = -rep.clearance_before[k];
        rep.contact[k] = true;
      } else if (opt.blend_time > 0) {
        const int edge = k < ph.first ? ph.first : ph.last;
        const double gap = std::abs(times[k] - times[edge]);
        wt = smoothstep(1.0 - gap / opt.blend_time);
        edge_offset = -rep.clearance_before[edge];
      }
      if (wt > rep.weight[k]) {
        rep.weight[k] = wt;
        pin.offset[k] = wt * edge_offset;
      }
    }
  }
  // Outside the phases the faded pin offset may pull a foot down only as
  // far as the floor: the edge's offset says nothing about this sample's
  // height (a foot landing out of contact that body grounding lifted onto
  // the floor would otherwise be pushed back under it).
  for (int k = 0; k < n; ++k) {
    if (rep.contact[k]) continue;
    if (pin.offset[k] < 0.0) pin.offset[k] = std::min(0.0, std::max(pin.offset[k], -rep.clearance_before[k]));
    // A swinging sole under the floor (a long foot carrying a pointed
    // toe) is lifted onto it: the knee bends, the body stays.
    if (opt.lift_swing_soles && rep.clearance_before[k] + pin.offset[k] < 0.0) {
      pin.unlifted[k] = pin.offset[k];
      pin.offset[k] = -rep.clearance_before[k];
      pin.onto_floor[k] = 1;
    }
  }
  return pin;
}

// One leg's solved tracks.
struct SolvedLeg {
  std::vector<Quat> keys[3];     // thigh, shin, foot local rotations per sample
  std::vector<Vec3> foot_moves;  // a detached foot's local translation per sample
  // A hock leg's (Leg::bind_knee_offset) side its knee bends to, in the
  // thigh's parent frame: the bind knee's to start with, then the last
  // solved knee's (zero and unused for other legs). A near-straight knee's
  // offset swings round the hip->ankle line from sample to sample (a human
  // swing carried onto a digitigrade hock crosses it), and a lift bent to
  // whichever side it had popped the knee through 90 deg between keys
  // (T-Rex walk.bvh: the body dipped 23 cm under the floor between them).
  Vec3 knee_side = Vec3::Zero();
};

// Starts each leg's tracks: n keys, the knee side at bind.
std::vector<SolvedLeg> start_solved_legs(const Skeleton& sk, const std::vector<Leg>& legs, int n) {
  std::vector<SolvedLeg> solved(legs.size());
  for (size_t li = 0; li < legs.size(); ++li) {
    for (std::vector<Quat>& keys : solved[li].keys) keys.resize(static_cast<size_t>(n));
    solved[li].foot_moves.resize(static_cast<size_t>(n));
    const int p = sk.parents[legs[li].thigh];
    const Quat parent_bind = rotation(p < 0 ? sk.root_parent_world[legs[li].thigh] : sk.bind_world[p]);
    solved[li].knee_side = parent_bind.conjugate() * legs[li].bind_knee_offset;
  }
  return solved;
}

// World rotation of joint j's parent in the pose wm.
Quat parent_rotation(const Skeleton& sk, const std::vector<Mat4>& wm, int j) {
  const int p = sk.parents[j];
  return p < 0 ? rotation(sk.root_parent_world[j]) : rotation(wm[p]);
}

// A leg in the input pose at one sample, as its solvers take it.
struct LegPose {
  Vec3 a, b, c;                  // hip, knee, ankle (world)
  Vec3 pole;                     // where a straight knee points
  Vec3 side;                     // where a hock's knee bends to (world)
  Quat q_thigh, q_shin, q_foot;  // world rotations
};

// Reads a leg off the input pose wm.
LegPose leg_pose(const Skeleton& sk, const Leg& leg, const std::vector<Mat4>& wm, const Vec3& forward,
                 const Vec3& side) {
  LegPose p;
  p.a = position(wm[leg.thigh]);
  p.b = position(wm[leg.shin]);
  p.c = position(wm[leg.foot]);
  // Knees point where the toes do; without a toe, where the character
  // faced in bind pose, carried by the foot.
  p.pole = leg.toe >= 0 ? Vec3(position(wm[leg.toe]) - p.c)
                        : Vec3(rotation(wm[leg.foot]) * (rotation(sk.bind_world[leg.foot]).conjugate() * forward));
  p.side = side;
  p.q_thigh = rotation(wm[leg.thigh]);
  p.q_shin = rotation(wm[leg.shin]);
  p.q_foot = rotation(wm[leg.foot]);
  return p;
}

// Solves the leg with its ankle moved up by `aim`: a digitigrade hock as a
// hinge from its bind frames, its knee kept to its side (solve_hinge_leg),
// any other leg as a two-bone chain.
TwoBoneSolution solve_leg(const Skeleton& sk, const Leg& leg, const LegPose& p, bool hinge, double aim) {
  TwoBoneSolution sol;
  if (hinge) {
    const HingeLegSolution hs = solve_hinge_leg(sk, leg, p.a, p.b, p.c, p.c + Vec3(0, aim, 0), p.side);
    sol.upper = (hs.thigh * p.q_thigh.conjugate()).normalized();
    sol.lower = (hs.shin * p.q_shin.conjugate()).normalized();
    sol.middle = hs.middle;
    sol.end = hs.end;
    sol.reached = hs.reached;
  } else {
    sol = solve_two_bone(p.a, p.b, p.c, p.c + Vec3(0, aim, 0), p.pole);
  }
  return sol;
}

// Writes a solved leg's thigh, shin and foot locals into out_locals.
// `weight`: the pin weight; `contact`: inside a phase.
void set_leg_locals(const Skeleton& sk, const Leg& leg, const std::vector<Mat4>& wm, const LegPose& p,
                    const TwoBoneSolution& sol, bool hinge, double weight, bool contact, double aim,
                    std::vector<Transform>& out_locals) {
  out_locals[leg.thigh].rotation = (parent_rotation(sk, wm, leg.thigh).conjugate() * sol.upper * p.q_thigh).normalized();
  out_locals[leg.shin].rotation =
      ((sol.upper * parent_rotation(sk, wm, leg.shin)).conjugate() * sol.lower * p.q_shin).normalized();
  // The foot keeps its animated world rotation in stance: the sole
  // lands flat as the source placed it, just moved by the pin. A hinge
  // leg's shin is solved from its bind frames, far from the clip's,
  // so out of stance its foot keeps the clip's ankle bend on the
  // solved shin instead (kept in world, the T-Rex's run ankles folded
  // by up to 170 deg against the clip's 63), blended by the pin weight.
  const Quat foot_world = hinge ? (sol.lower * p.q_foot).normalized().slerp(weight, p.q_foot) : p.q_foot;
  if (leg.detached_foot) {
    // Its parent is outside the leg: keep the world rotation, move
    // the joint to the solved ankle.
    out_locals[leg.foot].rotation = (parent_rotation(sk, wm, leg.foot).conjugate() * foot_world).normalized();
    // Pinned past the chain's reach, it still stands where it is
    // pinned, as the rig's own IK target does (the leg points at it,
    // the skin between shin and foot stretches): a source of the
    // rig's family puts it there (retarget, clip_transfer).
    const Vec3 at = sol.reached || !contact ? sol.end : Vec3(p.c + Vec3(0, aim, 0));
    const int fp = sk.parents[leg.foot];
    const Mat4 pw = fp < 0 ? sk.root_parent_world[leg.foot] : wm[fp];
    out_locals[leg.foot].translation = (pw.inverse() * at.homogeneous()).head<3>();
  } else {
    out_locals[leg.foot].rotation =
        ((sol.lower * parent_rotation(sk, wm, leg.foot)).conjugate() * foot_world).normalized();
  }
}

// The next aim of the re-aiming passes: Newton's step (the sole moves about
// as the ankle does); once aims under and over the floor are known, false
// position between them (Illinois): a foot that turns with its shin tips
// the sole further than the ankle moves, and plain steps swung the T-Rex's
// run toes from 2.1 m over to 1.7 m under the floor.
class AimSearch {
 public:
  double next(double aim, double residual) {
    const int floor_side = residual < 0.0 ? 0 : 1;
    if (floor_side == last_side_) (floor_side == 0 ? over_ : under_).residual *= 0.5;  // Illinois: a kept end pulls less
    last_side_ = floor_side;
    (floor_side == 0 ? under_ : over_) = Bracket{aim, residual};
    double next = aim - residual;
    if (std::isfinite(under_.aim) && std::isfinite(over_.aim))
      next = under_.aim - under_.residual * (over_.aim - under_.aim) / (over_.residual - under_.residual);
    return next;
  }

 private:
  // The last aims with the sole under and over the floor.
  struct Bracket {
    double aim = std::numeric_limits<double>::quiet_NaN();
    double residual = 0.0;
  };
  Bracket under_, over_;
  int last_side_ = -1;  // which of them the last pass replaced
};

// Pins one leg at sample k: its ankle moved by the pin offset, then re-aimed
// by the residual (up to eight passes) inside a phase and for a swinging
// sole lifted onto (or still under) the floor, since blended sole skin
// (heel weighted to the shin) does not move by exactly the ankle's offset.
// Writes the leg's locals into out_locals, counts rep.unreached and
// rep.max_correction.
void pin_leg(const Skeleton& sk, const Leg& leg, const FootTrack& track, const LegPin& pin, int k,
             const std::vector<Mat4>& wm, const LegPose& p, bool hinge, const LimbContactOptions& opt,
             FootReport& rep, std::vector<Transform>& out_locals, std::vector<Mat4>& scratch) {
  double aim = pin.offset[k];
  bool reached = true;
  // The best pass is kept (the lowest sole point can switch between
  // passes, so re-aiming need not converge): inside a phase the
  // smallest |residual|, for a swing sole the least depth under the floor.
  double best_score = std::numeric_limits<double>::infinity();
  Transform best[3];
  bool best_reached = true;
  const int leg_joints[3] = {leg.thigh, leg.shin, leg.foot};
  AimSearch search;
  const bool lifted = !rep.contact[k] && pin.onto_floor[k];
  for (int pass = 0; pass < 8; ++pass) {
    const TwoBoneSolution sol = solve_leg(sk, leg, p, hinge, aim);
    reached = sol.reached;
    set_leg_locals(sk, leg, wm, p, sol, hinge, rep.weight[k], rep.contact[k], aim, out_locals);
    // Also a swinging sole lifted onto the floor, or one still under
    // it (lift_swing_soles): shin skin by the ankle turns with the knee.
    const bool to_floor = rep.contact[k] || pin.onto_floor[k];
    if ((!to_floor && !opt.lift_swing_soles) || !reached) break;
    const double residual = lowest_sole(track, sk, out_locals, scratch, opt.floor_y);
    // Under the floor always scores its depth; over it, a sole at its
    // unlifted aim is as good as it gets.
    const double score = !to_floor || (lifted && aim <= pin.unlifted[k] && residual >= 0.0)
                             ? std::max(0.0, -residual)
                             : std::abs(residual);
    if (score < best_score) {
      best_score = score;
      for (int r = 0; r < 3; ++r) best[r] = out_locals[leg_joints[r]];
      best_reached = reached;
    }
    if ((!to_floor || (lifted && aim <= pin.unlifted[k])) && residual >= 0.0) break;
    if (std::abs(residual) <= 1e-9 * rep.leg_length) break;
    // A swing sole lifted onto the floor is never pulled below its
    // unlifted aim: turned with the shin, it may clear the floor by itself.
    double next = search.next(aim, residual);
    if (lifted && next < pin.unlifted[k]) next = pin.unlifted[k];
    if (next == aim) break;
    aim = next;
  }
  if (std::isfinite(best_score)) {
    for (int r = 0; r < 3; ++r) out_locals[leg_joints[r]] = best[r];
    reached = best_reached;
  }
  if (!reached) ++rep.unreached;
  rep.max_correction = std::max(rep.max_correction, std::abs(aim));
}

// The side a hock's knee bends to once solved, in its thigh's parent frame,
// for the next sample: the one it had while the knee is nearly straight.
// Only the thigh, shin and foot and their ancestors are posed (as
// local_to_world poses them; a detached foot hangs off another branch).
Vec3 next_knee_side(const Skeleton& sk, const Leg& leg, const std::vector<Transform>& out_locals,
                    const Quat& thigh_parent_rot, const Vec3& knee_side, std::vector<Mat4>& solved) {
  solved.resize(static_cast<size_t>(sk.size()));
  std::vector<int> chain;
  for (int end : {leg.thigh, leg.shin, leg.foot})
    for (int j = end; j >= 0 && std::find(chain.begin(), chain.end(), j) == chain.end(); j = sk.parents[j])
      chain.push_back(j);
  std::sort(chain.begin(), chain.end());  // parents first
  for (int i : chain) {
    const int p = sk.parents[i];
    solved[i] = (p < 0 ? sk.root_parent_world[i] : solved[p]) * out_locals[i].matrix();
  }
  const Vec3 a = position(solved[leg.thigh]), b = position(solved[leg.shin]);
  const Vec3 off = knee_offset(a, b, position(solved[leg.foot]));
  return off.norm() >= kBentKneeFraction * (b - a).norm() ? Vec3(thigh_parent_rot.conjugate() * off) : knee_side;
}

// Solves every leg at sample k (legs are disjoint subtrees, so each reads
// the input pose): appends its keys to `solved` and its clearance after IK
// to `feet`.
void solve_sample(const Skeleton& sk, const std::vector<Leg>& legs, const std::vector<FootTrack>& tracks,
                  const std::vector<LegPin>& pins, int k, const std::vector<Transform>& locals,
                  const std::vector<Mat4>& wm, const Vec3& forward, const LimbContactOptions& opt,
                  std::vector<FootReport>& feet, std::vector<SolvedLeg>& solved) {
  std::vector<Transform> out_locals = locals;
  std::vector<Mat4> scratch;  // poses of the joints a leg's measures read
  for (size_t li = 0; li < legs.size(); ++li) {
    const Leg& leg = legs[li];
    SolvedLeg& s = solved[li];
    const Quat thigh_parent_rot = parent_rotation(sk, wm, leg.thigh);
    const bool hinge = !leg.bind_knee_offset.isZero();
    if (pins[li].offset[k] != 0.0 || hinge)
      pin_leg(sk, leg, tracks[li], pins[li], k, wm, leg_pose(sk, leg, wm, forward, thigh_parent_rot * s.knee_side),
              hinge, opt, feet[li], out_locals, scratch);
    if (hinge) s.knee_side = next_knee_side(sk, leg, out_locals, thigh_parent_rot, s.knee_side, scratch);
    s.foot_moves[k] = out_locals[leg.foot].translation;
    const int joints[3] = {leg.thigh, leg.shin, leg.foot};
    for (int r = 0; r < 3; ++r) {
      Quat q = out_locals[joints[r]].rotation;
      if (k > 0 && s.keys[r][k - 1].coeffs().dot(q.coeffs()) < 0) q.coeffs() = -q.coeffs();
      s.keys[r][k] = q;
    }
  }
  for (size_t li = 0; li < legs.size(); ++li)
    feet[li].clearance_after.push_back(lowest_sole(tracks[li], sk, out_locals, scratch, opt.floor_y));
}

// Writes the legs' thigh/shin/foot rotation tracks (and a detached foot's
// translation) into the clip, one linear key per time; every other track
// stays as it was.
void write_leg_tracks(const std::vector<Leg>& legs, std::span<const double> times,
                      const std::vector<SolvedLeg>& solved, Clip& clip) {
  for (size_t li = 0; li < legs.size(); ++li) {
    const int joints[3] = {legs[li].thigh, legs[li].shin, legs[li].foot};
    for (int r = 0; r < 3; ++r) {
      auto it = std::find_if(clip.tracks.begin(), clip.tracks.end(),
                             [&](const JointTracks& jt) { return jt.joint == joints[r]; });
      if (it == clip.tracks.end()) {
        clip.tracks.push_back(JointTracks{});
        it = clip.tracks.end() - 1;
        it->joint = joints[r];
      }
      it->rotation.times.assign(times.begin(), times.end());
      it->rotation.values = solved[li].keys[r];
      it->rotation.interpolation = Interpolation::kLinear;
      if (r == 2 && legs[li].detached_foot) {
        it->translation.times.assign(times.begin(), times.end());
        it->translation.values = solved[li].foot_moves;
        it->translation.interpolation = Interpolation::kLinear;
      }
    }
  }
}

}  // namespace

LimbContactResult reconcile_limbs(const Skeleton& sk, const Clip& clip, std::span<const double> times,
                                  const LimbContactOptions& opt) {
  LimbContactResult res;
  res.clip = clip;
  const int n = static_cast<int>(times.size());
  if (n == 0 || !std::is_sorted(times.begin(), times.end())) {
    res.status = Status::Error(Status::Code::kBadData, "limb contact: sample times must be ascending and non-empty");
    return res;
  }
  const std::vector<Leg> legs = find_legs(sk);
  if (legs.empty()) {
    res.status = Status::Error(Status::Code::kBadData, "limb contact: no leg with thigh, shin and foot roles");
    return res;
  }
  const Vec3 forward = facing_from_roles(sk).forward();

  std::vector<std::vector<Transform>> locals;
  const std::vector<std::vector<Mat4>> world = poses(sk, clip, times, &locals);
  std::vector<FootTrack> tracks = track_feet(sk, legs, world, opt);
  std::vector<LegPin> pins;
  for (size_t li = 0; li < legs.size(); ++li) {
    FootReport& rep = tracks[li].report;
    rep.phases = pinned_phases(tracks[li], li, times, opt);
    pins.push_back(plan_pin(rep, times, opt));
    res.feet.push_back(rep);
  }
  std::vector<SolvedLeg> solved = start_solved_legs(sk, legs, n);
  for (int k = 0; k < n; ++k)
    solve_sample(sk, legs, tracks, pins, k, locals[k], world[k], forward, opt, res.feet, solved);
  write_leg_tracks(legs, times, solved, res.clip);
  return res;
}

}  // namespace rig
