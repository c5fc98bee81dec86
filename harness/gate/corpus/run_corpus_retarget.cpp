// Corpus retarget checks (issue 11): a mocap clip through rig::transfer_clip
// onto a character, as `harness retarget` does it, then measured against a
// floor of our own (the scene's y = 0 unless the manifest says), not the pipeline's.
#include <algorithm>
#include <memory>
#include <mutex>
#include <map>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "detect/find_appendages.h"
#include "measure/edge_stretch.h"
#include "rig/retarget/clearance/arm_clearance.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/pose.h"
#include "rig/model/weld.h"
#include "pipeline/retarget_character.h"
#include "harness/gate/corpus/run_corpus.h"
#include "harness/gate/corpus/run_corpus_body_stretch.h"
#include "harness/gate/lowest_skin.h"
#include "rig/model/lowest_skin.h"

namespace harness::corpus {

namespace {

using rig::BodyPart;
using rig::Vec3;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kFloorTolerance = 0.02;    // m: stance feet and lowest body point (issue 11)
constexpr double kLegRangeMinDeg = 10.0;    // a walking thigh swings tens of degrees
constexpr double kStanceBand = 0.02;        // x source leg length: a planted foot point
constexpr double kStanceTrimS = 0.07;       // s taken off each stance run's inner ends
constexpr double kWeldFraction = 1e-4;      // x H, as detect

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

double angle_deg(const rig::Quat& a, const rig::Quat& b) {
  const double d = std::min(1.0, std::abs(a.normalized().dot(b.normalized())));
  return 2.0 * std::acos(d) * 180.0 / M_PI;
}

// One clip's retarget while it is checked: its name in the metrics and the
// retarget table, its table entry and the pipeline's output.
struct ClipRun {
  std::string key;                                // the retarget table's row and the metrics' name part
  std::string pre;                                // the checks' prefix: "retarget." + key + "."
  nlohmann::json row = nlohmann::json::object();  // the retarget table's entry
  rig::Calibration src_cal;                       // the source's, for every run of the clip
  rig::TransferResult t;                          // the pipeline's output
};

// The pipeline on the clip and its refusal checked: a clip of another
// number of legs (or for a target the manifest says refuse) must be refused
// cleanly, any other animated. False when nothing more is checked (the row
// is then stored).
bool check_refusal(const Entry& e, const rig::Character& c, const RetargetTarget& target, const ClipSource& src,
                   FileResult& r, ClipRun& run) {
  run.key = src.key;
  run.pre = "retarget." + run.key + ".";
  const rig::Clip& clip = src.source.clips[src.clip];
  run.src_cal = rig::calibrate(src.source.skeleton);
  run.t = pipeline::retarget_clip(src.source, clip, run.src_cal, c, target.prepared);
  const bool refused = !run.t.status.ok();
  run.row["refused"] = refused;
  if (refused) run.row["reason"] = run.t.status.message;
  // A clip of another number of legs cannot be mapped leg for leg.
  if (e.retarget == "refuse" || src.legs != e.legs) {
    add_check(r, run.pre + "refused", refused ? 1 : 0, "==", 1,
              refused ? run.t.status.message
                      : "animated: expected a clean refusal (" +
                            (e.retarget == "refuse" ? std::string("no mappable legs")
                                                    : "the source has " + std::to_string(src.legs) + " legs, the target " +
                                                          std::to_string(e.legs)) +
                            ")");
    r.row["retarget"][src.key] = run.row;
    return false;
  }
  add_check(r, run.pre + "refused", refused ? 1 : 0, "==", 0, refused ? run.t.status.message : "");
  if (refused) {
    r.row["retarget"][src.key] = run.row;
    return false;
  }
  return true;
}

// The character's own clip onto its own rig, copied as authored: checked
// against the artist's clip. The pipeline on that clip stays gated too
// (retarget.KEY_retargeted.*, as `harness retarget --own-rig retarget`):
// it is the path for a same-family rig of other proportions; `run` becomes
// that run. False when the pipeline refused it (the row is then stored).
bool check_own_rig(const rig::Character& c, const RetargetTarget& target, const ClipSource& src, FileResult& r,
                   ClipRun& run) {
  if (!(run.t.diagnostics.own_rig_joints > 0)) return true;
  check_own_rig_copy(c, src, run.t, target.prepared.transfer.own_rig, run.pre, r, run.row);
  // The artist's clip as authored: its body against the floor reported, not
  // checked (the copy moves nothing; the pipeline never refuses it).
  r.metrics[run.pre + "body_under_floor_rel_H_as_authored"] = pipeline::body_under_floor_rel_h(run.t);
  r.row["retarget"][run.key] = run.row;
  pipeline::PreparedTarget retargeted = target.prepared;  // as --own-rig retarget
  retargeted.transfer.copy_own_rig_clips = false;
  run.t = pipeline::retarget_clip(src.source, src.source.clips[src.clip], run.src_cal, c, retargeted);
  run.key += "_retargeted";
  run.pre = "retarget." + run.key + ".";
  run.row = nlohmann::json::object();
  run.row["refused"] = !run.t.status.ok();
  if (!run.t.status.ok()) run.row["reason"] = run.t.status.message;
  add_check(r, run.pre + "refused", run.t.status.ok() ? 0 : 1, "==", 0, run.t.status.message);
  if (!run.t.status.ok()) {
    r.row["retarget"][run.key] = run.row;
    return false;
  }
  check_own_clip_retargeted(c, src, run.t, run.pre, r, run.row);
  return true;
}

}  // namespace

// What a character's clips are measured on (one per character, for every
// clip: RetargetTarget::body): its body, each side's leg skin, the body's
// welded edges, and those vertex sets indexed for their lowest point.
struct TargetBody {
  std::vector<char> body;                       // per vertex: not tail skin
  int prop_vertices = 0;                        // vertices on carried props
  double bind_floor = kInf;                     // the bind pose's lowest body point (props left out)
  std::vector<std::vector<int>> foot_v;         // left, right: leg skin vertices
  std::vector<std::pair<int, int>> body_edges;  // welded ids, both ends on the body
  std::vector<Vec3> bind_w;                     // per welded vertex: bind position
  rig::LowestSkinIndex lowest_body;             // body vertices off the props
  rig::LowestSkinIndex lowest_prop;             // prop vertices
  std::vector<rig::LowestSkinIndex> lowest_foot;  // left, right: foot_v
};

namespace {

// The body, leg skin and body edges of the character (independent of the clip).
TargetBody target_body(const rig::Character& c, const RetargetTarget& target) {
  TargetBody b;
  const rig::Skeleton& sk = c.skeleton;
  // Body = every vertex not in T (tail bones' skin, or the rigger tail detect
  // found). Its lowest point leaves carried objects out (carried_object_vertices); its
  // torn edges keep them, as Blender's whole-body count does.
  const std::vector<bool> tail_bone = rig::tail_joint_mask(sk);
  const int nv = c.mesh.vertex_count();
  const rig::Welded& w = target.welded;
  b.body.assign(nv, 1);
  for (int v = 0; v < nv; ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d >= 0 && tail_bone[d]) b.body[v] = 0;
  }
  for (int v : target.prepared.transfer.grounding.tail_vertices) b.body[v] = 0;
  const std::vector<char>& prop = target.prop;
  b.prop_vertices = static_cast<int>(std::count(prop.begin(), prop.end(), 1));
  // The pipeline's floor (the bind pose's lowest body point) is reported
  // beside the scene's (check_retarget).
  for (int v = 0; v < nv; ++v)
    if (b.body[v] && !prop[v]) b.bind_floor = std::min(b.bind_floor, c.mesh.positions[v].y());
  // Target legs by side: skin dominated by its thigh, shin, foot and toe
  // joints (its lowest vertex is the sole, also when the shoe is skinned to
  // the shin and the foot joint is a weightless IK target).
  b.foot_v.resize(2);
  for (int v = 0; v < nv; ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d < 0) continue;
    const rig::Role role = sk.roles[d];
    const bool leg = role.part == BodyPart::kThigh || role.part == BodyPart::kShin || role.part == BodyPart::kFoot ||
                     role.part == BodyPart::kToe;
    if (leg && role.side != rig::Side::kCenter) b.foot_v[role.side == rig::Side::kLeft ? 0 : 1].push_back(v);
  }
  std::vector<char> body_w(w.count(), 1);
  for (int v = 0; v < nv; ++v)
    if (!b.body[v]) body_w[w.weld_of[v]] = 0;
  for (const auto& ed : rig::unique_edges(w.triangles))
    if (body_w[ed.first] && body_w[ed.second]) b.body_edges.push_back(ed);
  b.bind_w.resize(w.count());
  for (int i = 0; i < w.count(); ++i) b.bind_w[i] = c.mesh.positions[w.representative[i]];
  std::vector<int> low_body, low_prop;
  for (int v = 0; v < nv; ++v) {
    if (b.body[v] && !prop[v]) low_body.push_back(v);
    if (prop[v]) low_prop.push_back(v);
  }
  b.lowest_body = rig::index_lowest_skin(c, low_body);
  b.lowest_prop = rig::index_lowest_skin(c, low_prop);
  for (const std::vector<int>& side : b.foot_v) b.lowest_foot.push_back(rig::index_lowest_skin(c, side));
  return b;
}

// Legs move: per thigh joint, the largest angle between two of its
// rotations relative to the pelvis over the clip (its local rotation when
// it hangs from the pelvis; a rig family's hip joints between them, the
// Wolf's BackShoulder and BackLeg, swing the leg as much as the thigh
// does); the smallest over the thighs, checked and returned.
double check_legs_move(const rig::Skeleton& sk, const rig::TransferResult& t, const std::string& pre, FileResult& r) {
  const int n = static_cast<int>(t.times.size());
  std::vector<int> thighs;
  int pelvis = -1;
  for (int j = 0; j < sk.size(); ++j) {
    if (sk.roles[j].part == BodyPart::kThigh) thighs.push_back(j);
    if (sk.roles[j].part == BodyPart::kHips && pelvis < 0) pelvis = j;
  }
  std::vector<std::vector<rig::Quat>> thigh_rot(thighs.size());
  for (int k = 0; k < n; ++k) {  // every key: the widest swing is not missed between samples
    std::vector<rig::Transform> locals = sk.neutral_local;
    rig::apply_clip(t.clip, t.times[k], locals);
    const std::vector<rig::Mat4> world = rig::local_to_world(sk, locals);
    const rig::Quat frame = pelvis >= 0 ? rig::Transform::from_matrix(world[pelvis]).rotation : rig::Quat::Identity();
    for (size_t q = 0; q < thighs.size(); ++q)
      thigh_rot[q].push_back(pelvis >= 0 && thighs[q] != pelvis
                                 ? rig::Quat(frame.conjugate() * rig::Transform::from_matrix(world[thighs[q]]).rotation)
                                 : locals[thighs[q]].rotation);
  }
  double leg_range = thighs.empty() ? kNaN : kInf;
  for (const auto& rots : thigh_rot) {
    double m = 0;
    for (size_t a = 0; a < rots.size(); ++a)
      for (size_t b = a + 1; b < rots.size(); ++b) m = std::max(m, angle_deg(rots[a], rots[b]));
    leg_range = std::min(leg_range, m);
  }
  add_check(r, pre + "legs_rotation_range_min_deg", leg_range, ">=", kLegRangeMinDeg,
            thighs.empty() ? "no thigh joints" : "smallest thigh rotation range over the clip");
  return leg_range;
}

// The source's stance keys, per side.
struct SourceStance {
  std::vector<std::vector<bool>> of_side;  // left, right: per key, the source's foot in stance
  int feet = 0;                            // the source's feet on a side
};

// Landing and lift-off: the target's foot, of other proportions, may
// still be on its way down when the source's ankle is already low. Each
// stance run loses kStanceTrimS at an end inside the clip (its middle key
// stays).
void trim_stance_runs(const rig::TransferResult& t, std::vector<std::vector<bool>>& stance_of_side) {
  const int n = static_cast<int>(t.times.size());
  const double dt = n > 1 ? (t.times.back() - t.times.front()) / (n - 1) : 1.0;
  const int trim = static_cast<int>(std::lround(kStanceTrimS / dt));
  for (auto& side : stance_of_side) {
    std::vector<bool> core(n, false);
    for (int a = 0; a < n;) {
      if (!side[a]) {
        ++a;
        continue;
      }
      int b = a;
      while (b + 1 < n && side[b + 1]) ++b;
      const int lo = a == 0 ? a : a + trim, hi = b == n - 1 ? b : b - trim;
      if (lo <= hi) {
        for (int k = lo; k <= hi; ++k) core[k] = true;
      } else {
        core[(a + b) / 2] = true;
      }
      a = b + 1;
    }
    side = core;
  }
}

// Stance from the source's own feet, independent of whether (and where) the
// pipeline found and pinned the target's: per side, the keys where the
// source's ankle (foot joint) is within kStanceBand leg lengths of its own
// lowest level over the clip (flat-foot stance: heel strike and toe-off,
// where the ankle is raised, are left out; an in-place clip whose stance
// foot slides still counts).
SourceStance source_stance(const ClipSource& src, const rig::TransferResult& t) {
  const rig::Skeleton& ssk = src.source.skeleton;
  const rig::Clip& clip = src.source.clips[src.clip];
  const int n = static_cast<int>(t.times.size());
  SourceStance s;
  s.of_side.assign(2, std::vector<bool>(n, false));
  std::vector<std::vector<rig::Mat4>> src_pose(n);
  for (int k = 0; k < n; ++k) src_pose[k] = rig::pose_at(ssk, clip, t.start_time + t.times[k]);
  auto bpos = [&](int j) { return Vec3(ssk.bind_world[j].block<3, 1>(0, 3)); };
  for (const rig::Leg& leg : rig::find_legs(ssk)) {
    if (leg.side == rig::Side::kCenter) continue;
    const double band =
        kStanceBand * ((bpos(leg.thigh) - bpos(leg.shin)).norm() + (bpos(leg.shin) - bpos(leg.foot)).norm());
    auto& side = s.of_side[leg.side == rig::Side::kLeft ? 0 : 1];
    {
      const int j = leg.foot;  // the ankle: toe joints dip in swing and pivot at toe-off
      double own_floor = kInf;
      for (int k = 0; k < n; ++k) own_floor = std::min(own_floor, src_pose[k][j](1, 3));
      for (int k = 0; k < n; ++k) side[k] = side[k] || src_pose[k][j](1, 3) <= own_floor + band;
    }
    ++s.feet;
  }
  trim_stance_runs(t, s.of_side);
  return s;
}

// The retargeted clip at the source's stance keys against the floor: the
// lowest body point and each stance foot's lowest leg vertex (metres); the
// body's lift over every key.
struct FloorContact {
  double foot_err = kNaN, lowest_err = kNaN, lift = 0.0, lowest_min = kInf, lowest_max = -kInf, prop_min = kInf;
  std::string lowest_where, foot_where;
  std::vector<long> stance_per_foot = std::vector<long>(2, 0);
};

// The floor contact of the retargeted clip (FloorContact) on the scene's
// floor (bind units): at each stance key the lowest body, prop and leg
// vertices as rig::skin_positions places them (PosedSkin).
FloorContact measure_floor_contact(const rig::Character& c, const TargetBody& b, double floor,
                                   const SourceStance& stance, const rig::TransferResult& t) {
  const double mpu = c.meters_per_unit;
  const rig::Skeleton& sk = c.skeleton;
  const int n = static_cast<int>(t.times.size());
  const auto& stance_of_side = stance.of_side;
  FloorContact f;
  PosedSkin skin(c);
  std::vector<rig::Transform> locals;
  std::vector<rig::Mat4> world(static_cast<size_t>(sk.size()));
  for (int k = 0; k < n; ++k) {
    f.lift = std::max(f.lift, k < static_cast<int>(t.lift.size()) ? t.lift[k] : 0.0);
    if (!stance_of_side[0][k] && !stance_of_side[1][k]) continue;
    locals = sk.neutral_local;
    rig::apply_clip(t.clip, t.times[k], locals);
    rig::local_to_world(sk, locals, world);
    skin.pose(world);
    const rig::LowestItem low = skin.lowest(b.lowest_body);
    // (y - floor) * mpu never reorders heights: the least of the props'.
    if (b.prop_vertices > 0) f.prop_min = std::min(f.prop_min, (skin.lowest(b.lowest_prop).y - floor) * mpu);
    if (low.item >= 0) {  // none when tail and props are all the skin: the check then fails on NaN
      const int low_v = b.lowest_body.vertices[static_cast<size_t>(low.item)];
      const double h = (low.y - floor) * mpu;
      if (std::isnan(f.lowest_err) || std::abs(h) > f.lowest_err) {
        f.lowest_err = std::abs(h);
        const int d = rig::dominant_joint(c.skin.influences[low_v]);
        f.lowest_where = fmt("%.3f m", h) + " at " + fmt("%.2f s", t.times[k]) + " on " + (d >= 0 ? sk.names[d] : "?") + " skin";
      }
      f.lowest_min = std::min(f.lowest_min, h);
      f.lowest_max = std::max(f.lowest_max, h);
    }
    for (int side = 0; side < 2; ++side) {
      if (!stance_of_side[side][k] || b.foot_v[side].empty()) continue;
      ++f.stance_per_foot[side];
      const double y = skin.lowest(b.lowest_foot[side]).y;
      const double err = std::abs(y - floor) * mpu;
      if (std::isnan(f.foot_err) || err > f.foot_err) {
        f.foot_err = err;
        f.foot_where = fmt("%.3f m", (y - floor) * mpu) + " at " + fmt("%.2f s", t.times[k]) + (side == 0 ? " (left)" : " (right)");
      }
    }
  }
  return f;
}

}  // namespace

struct ArtistClipCache {
  std::mutex mutex;
  std::map<std::string, ArtistClip> by_gait;
};

namespace {

// artist_clip_torn, once per character and gait (RetargetTarget::artist_clips).
// The lock is held while measuring: another clip of the gait waits for the
// number rather than measure it again.
ArtistClip artist_clip_torn_once(const rig::Character& c, const std::string& gait, const RetargetTarget& target,
                                 const TargetBody& b) {
  if (!target.artist_clips) return artist_clip_torn(c, gait, target.welded, {b.body_edges, b.bind_w});
  std::lock_guard<std::mutex> lock(target.artist_clips->mutex);
  auto& by_gait = target.artist_clips->by_gait;
  if (const auto it = by_gait.find(gait); it != by_gait.end()) return it->second;
  return by_gait[gait] = artist_clip_torn(c, gait, target.welded, {b.body_edges, b.bind_w});
}

// The (up to) three joints whose skin holds most torn samples, with their
// shares: "Hips 40%, Spine 20%, ..."; empty when nothing tore.
std::string worst_torn_joints(const rig::Skeleton& sk, const std::vector<int>& torn_by_joint) {
  std::string worst;
  std::vector<int> order(sk.size());
  for (int j = 0; j < sk.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return torn_by_joint[a] > torn_by_joint[b]; });
  const double total = std::max<double>(1.0, std::accumulate(torn_by_joint.begin(), torn_by_joint.end(), 0.0));
  for (int q = 0; q < 3 && q < sk.size() && torn_by_joint[order[q]] > 0; ++q)
    worst += (worst.empty() ? "" : ", ") + sk.names[order[q]] + " " + fmt("%.0f%%", 100.0 * torn_by_joint[order[q]] / total);
  return worst;
}

// Everything measured on one retargeted clip.
struct ClipMeasures {
  double leg_range = kNaN;  // degrees
  SourceStance stance;
  BodyStretch stretch;
  measure::StretchStats torn;  // of stretch.ratios: samples, p99 and torn_fraction only
  FloorContact floor;
  ArtistClip own;
  std::string worst;  // worst_torn_joints
};

// The floor checks: feet pinned, stance keys per foot, stance feet and the
// lowest body point on the floor; the lowest point's range and the props'
// lowest point reported.
void check_floor_contact(const Entry& e, const rig::Character& c, const TargetBody& b, const ClipMeasures& m,
                         const ClipRun& run, FileResult& r) {
  const double mpu = c.meters_per_unit;
  const rig::TransferResult& t = run.t;
  const std::string& pre = run.pre;
  const FloorContact& f = m.floor;
  const long min_foot = std::min(f.stance_per_foot[0], f.stance_per_foot[1]);
  add_check(r, pre + "feet_pinned", static_cast<double>(t.feet.size()), "==", e.legs,
            t.feet.empty() ? "feet not pinned: " + t.limbs_note : "legs the pipeline pinned");
  add_check(r, pre + "stance_keys_min_foot", static_cast<double>(min_foot), ">", 0,
            std::to_string(m.stance.feet) + " source feet; stance keys per target foot (left " +
                std::to_string(f.stance_per_foot[0]) + ", right " + std::to_string(f.stance_per_foot[1]) + ")");
  add_check(r, pre + "stance_foot_error_max_m", f.foot_err, "<=", kFloorTolerance,
            "lowest leg vertex vs the floor, source stance keys" + (f.foot_where.empty() ? "" : ": worst " + f.foot_where));
  add_check(r, pre + "lowest_point_error_max_m", f.lowest_err, "<=", kFloorTolerance,
            "lowest body vertex (carried props excluded) vs the floor, source stance keys: worst " + f.lowest_where +
                "; max body lift " + fmt("%.3f m", f.lift * mpu));
  if (std::isfinite(f.lowest_min)) {
    r.metrics[pre + "lowest_point_min_m"] = f.lowest_min;
    r.metrics[pre + "lowest_point_max_m"] = f.lowest_max;
  }
  if (b.prop_vertices > 0 && std::isfinite(f.prop_min)) {  // reported, not checked: the arms' pose, not grounding
    r.metrics[pre + "prop_lowest_point_min_m"] = f.prop_min;
  }
}

// Issue 45: the whole body above the floor at every key (the pipeline's own
// measurement, by which `harness retarget` refuses a clip it cannot place):
// the deepest body vertex (tail skin and carried objects aside) under the
// pipeline's floor, x H; the whole-body lift that kept it there reported.
void check_body_under_floor(const rig::Character& c, const ClipRun& run, FileResult& r) {
  const double mpu = c.meters_per_unit;
  const rig::TransferResult& t = run.t;
  const double before = t.height > 0.0 ? t.diagnostics.max_body_floor_depth_before / t.height : 0.0;
  add_check(r, run.pre + "body_under_floor_max_rel_H", pipeline::body_under_floor_rel_h(t), "<=",
            pipeline::kBodyUnderFloorMaxRelH,
            "deepest body vertex under the floor over " + std::to_string(t.times.size()) + " keys: " +
                pipeline::body_under_floor_where(t, c.skeleton, mpu) + "; before the whole-body lift " +
                fmt("%.4f", before) + " x H, lifted up to " + fmt("%.3f m", t.diagnostics.max_body_floor_lift * mpu) +
                " at " + std::to_string(t.diagnostics.body_floor_lift_keys) + " keys");
  r.metrics[run.pre + "body_floor_lift_max_m"] = t.diagnostics.max_body_floor_lift * mpu;
}

// Body edges not torn, against the manifest's bar or, for a character that
// tears on its artist's own clip of the gait, a multiple of that.
void check_body_torn(const Entry& e, const ClipSource& src, const TargetBody& b, const ClipMeasures& m,
                     const std::string& pre, FileResult& r) {
  // A low-poly quadruped tears on its artist's own walk already (the Fox
  // 3.2 %): its bar for a walk of another animal is relative to that.
  double torn_max = e.body_torn_max;
  std::string bar;
  if (src.torn_vs_own > 0 && std::isfinite(m.own.torn) && src.torn_vs_own * m.own.torn > torn_max) {
    torn_max = src.torn_vs_own * m.own.torn;
    bar = "; bar " + fmt("%.2f", src.torn_vs_own) + " x its own " + m.own.name + "'s " + fmt("%.4f", m.own.torn);
  }
  add_check(r, pre + "body_torn_fraction", m.torn.torn_fraction, "<=", torn_max,
            std::to_string(b.body_edges.size()) + " body edges x " + std::to_string(m.stretch.samples) + " samples, p99 " +
                fmt("%.3f", m.torn.p99) + (m.worst.empty() ? "" : "; torn skin mostly on " + m.worst) + bar);
}

// The clip's reported metrics and its retarget table entry (non-finite
// numbers as null), stored in r.
void report_clip(const rig::Character& c, const RetargetTarget& target, const TargetBody& b, const ClipMeasures& m,
                 ClipRun& run, FileResult& r) {
  const double mpu = c.meters_per_unit;
  const rig::TransferResult& t = run.t;
  const std::string& pre = run.pre;
  nlohmann::json& row = run.row;
  r.metrics[pre + "body_lift_max_m"] = m.floor.lift * mpu;
  r.metrics[pre + "body_p99"] = m.torn.p99;
  r.metrics[pre + "floor_alignment_m"] = t.floor_alignment * mpu;
  r.metrics[pre + "arm_turn_max_deg"] = t.diagnostics.max_arm_turn * 180.0 / M_PI;
  r.metrics[pre + "pipeline_floor_m"] = t.floor_y * mpu;
  r.metrics[pre + "bind_floor_m"] = b.bind_floor * mpu;
  row["legs_range_deg"] = m.leg_range;
  row["foot_err_m"] = m.floor.foot_err;
  row["lowest_err_m"] = m.floor.lowest_err;
  row["body_torn"] = m.torn.torn_fraction;
  if (std::isfinite(m.own.torn)) {
    r.metrics[pre + "artist_clip_body_torn"] = m.own.torn;
    row["artist_clip"] = m.own.name;
    row["artist_clip_body_torn"] = m.own.torn;
  }
  row["lift_m"] = m.floor.lift * mpu;
  row["prop_vertices"] = b.prop_vertices;
  row["feet"] = static_cast<int>(t.feet.size());
  row["rigger_tail_vertices"] = target.prepared.rigger_tail;
  if (t.feet.empty()) row["limbs_note"] = t.limbs_note;
  if (!m.worst.empty()) row["torn_on"] = m.worst;
  for (auto& [k, v] : row.items())
    if (v.is_number_float() && !std::isfinite(v.get<double>())) v = nullptr;
  r.row["retarget"][run.key] = row;
}

// The clip's checks the scenario reports only (ClipSource::reported):
// moved from the checks to the metrics (NaN left out), measured, not gated.
void report_only(const ClipSource& src, const std::string& pre, FileResult& r) {
  if (src.reported.empty()) return;
  for (auto it = r.checks.begin(); it != r.checks.end();) {
    const bool listed = it->id.rfind(pre, 0) == 0 &&
                        std::any_of(src.reported.begin(), src.reported.end(),
                                    [&](const auto& rep) { return it->id.substr(pre.size()) == rep.first; });
    if (!listed) {
      ++it;
      continue;
    }
    if (std::isfinite(it->actual)) r.metrics[it->id] = it->actual;
    it = r.checks.erase(it);
  }
}

}  // namespace

RetargetTarget prepare_corpus_target(const rig::Character& c, double rate) {
  RetargetTarget t;
  pipeline::RetargetOptions options;  // the command's defaults
  options.rate = rate;
  t.prepared = pipeline::prepare_retarget_target(c, options);
  // Read once per character, for every clip's checks.
  t.welded = rig::weld_by_position(c.mesh.positions, c.mesh.triangles,
                                   kWeldFraction * rig::model_height(c.mesh.positions));
  // Carried objects (rig::carried_object_vertices, the pipeline's own test):
  // floor placement ignores them, so the lowest-body-point check does too.
  t.prop = rig::carried_object_vertices(c, kWeldFraction * rig::model_height(c.mesh.positions));
  t.artist_clips = std::make_shared<ArtistClipCache>();
  t.body = std::make_shared<const TargetBody>(target_body(c, t));
  return t;
}

// The checks of one retargeted clip, in this order: refusal, own-rig copy,
// legs moving, stance feet and lowest point on the floor, no rigger tail on
// a no-tail character, body not torn; then the reported numbers.
void check_retarget(const Entry& e, const rig::Character& c, const RetargetTarget& target, const ClipSource& src,
                    FileResult& r) {
  ClipRun run;
  if (!check_refusal(e, c, target, src, r, run)) return;
  if (!check_own_rig(c, target, src, r, run)) return;
  const TargetBody& b = *target.body;
  // The floor: the scene's y = floor_y (glTF is Y up; a character's own
  // clips stand on y = 0, also when its bind pose does not: the Cyberpunk
  // character's bind mesh floats 0.74 m above it).
  const double floor = e.floor_y / c.meters_per_unit;
  ClipMeasures m;
  m.leg_range = check_legs_move(c.skeleton, run.t, run.pre, r);
  m.stance = source_stance(src, run.t);
  m.stretch = sample_body_stretch(c, target.welded, {b.body_edges, b.bind_w}, run.t);
  m.floor = measure_floor_contact(c, b, floor, m.stance, run.t);
  // Only p99 and the torn fraction are read (check_body_torn, report_clip):
  // two ranks placed, not all of stretch_stats'; the ratios are not read again.
  // The torn count was kept while sampling (measure::torn_fraction's test
  // and division: no second pass over millions of ratios).
  m.torn.samples = static_cast<long>(m.stretch.ratios.size());
  m.torn.torn_fraction =
      m.torn.samples > 0 ? static_cast<double>(m.stretch.torn) / static_cast<double>(m.torn.samples) : 0.0;
  m.torn.p99 = measure::percentile(std::move(m.stretch.ratios), 99);
  m.own = artist_clip_torn_once(c, src.gait, target, b);
  m.worst = worst_torn_joints(c.skeleton, m.stretch.torn_by_joint);
  check_floor_contact(e, c, b, m, run, r);
  check_body_under_floor(c, run, r);
  if (e.tail == "none")  // floor placement never driven by a misdetected region (issue 11)
    add_check(r, run.pre + "rigger_tail_vertices", target.prepared.rigger_tail, "==", 0,
              "no-tail character: skin kept out of body grounding as a boneless tail");
  check_body_torn(e, src, b, m, run.pre, r);
  report_only(src, run.pre, r);
  report_clip(c, target, b, m, run, r);
}

}  // namespace harness::corpus
