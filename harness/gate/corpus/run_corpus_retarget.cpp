// Corpus retarget checks (issue 11): a mocap clip through rig::transfer_clip
// onto a character, as `harness retarget` does it, then measured against a
// floor of our own (the scene's y = 0 unless the manifest says), not the pipeline's.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "detect/find_appendages.h"
#include "measure/edge_stretch.h"
#include "rig/anatomy/name_tokens.h"
#include "rig/retarget/clearance/arm_clearance.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/retarget/contact/limb_contact.h"
#include "rig/model/pose.h"
#include "rig/model/weld.h"
#include "pipeline/retarget_character.h"
#include "harness/gate/corpus/run_corpus.h"

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
constexpr int kTornSamples = 24;            // SPEC §7
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

// The character's own clip of the source's gait (the scenario's clip "gait"):
// the shortest clip name with that name token, or -1 (also with no gait).
int own_gait_clip(const rig::Character& c, const std::string& gait) {
  int best = -1;
  if (gait.empty()) return best;
  for (int i = 0; i < static_cast<int>(c.clips.size()); ++i)
    if (rig::name_has_token(c.clips[i].name, gait) &&
        (best < 0 || c.clips[i].name.size() < c.clips[best].name.size()))
      best = i;
  return best;
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
  return t;
}

void check_retarget(const Entry& e, const rig::Character& c, const RetargetTarget& target, const ClipSource& src,
                    FileResult& r) {
  std::string key = src.key;  // the retarget table's row and the metrics' name part
  std::string pre = "retarget." + key + ".";
  const rig::Clip& clip = src.source.clips[src.clip];
  const rig::TransferOptions& to = target.prepared.transfer;
  const int tail_found = target.prepared.rigger_tail;
  const rig::Calibration src_cal = rig::calibrate(src.source.skeleton);
  rig::TransferResult t = pipeline::retarget_clip(src.source, clip, src_cal, c, target.prepared);
  nlohmann::json row = nlohmann::json::object();
  const bool refused = !t.status.ok();
  row["refused"] = refused;
  if (refused) row["reason"] = t.status.message;
  // A clip of another number of legs cannot be mapped leg for leg.
  if (e.retarget == "refuse" || src.legs != e.legs) {
    add_check(r, pre + "refused", refused ? 1 : 0, "==", 1,
              refused ? t.status.message
                      : "animated: expected a clean refusal (" +
                            (e.retarget == "refuse" ? std::string("no mappable legs")
                                                    : "the source has " + std::to_string(src.legs) + " legs, the target " +
                                                          std::to_string(e.legs)) +
                            ")");
    r.row["retarget"][src.key] = row;
    return;
  }
  add_check(r, pre + "refused", refused ? 1 : 0, "==", 0, refused ? t.status.message : "");
  if (refused) {
    r.row["retarget"][src.key] = row;
    return;
  }
  // The character's own clip onto its own rig, copied as authored: checked
  // against the artist's clip. The pipeline on that clip stays gated too
  // (retarget.KEY_retargeted.*, as `harness retarget --own-rig retarget`):
  // it is the path for a same-family rig of other proportions.
  if (t.diagnostics.own_rig_joints > 0) {
    check_own_rig_copy(c, src, t, to.own_rig, pre, r, row);
    r.row["retarget"][key] = row;
    pipeline::PreparedTarget retargeted = target.prepared;  // as --own-rig retarget
    retargeted.transfer.copy_own_rig_clips = false;
    t = pipeline::retarget_clip(src.source, clip, src_cal, c, retargeted);
    key += "_retargeted";
    pre = "retarget." + key + ".";
    row = nlohmann::json::object();
    row["refused"] = !t.status.ok();
    if (!t.status.ok()) row["reason"] = t.status.message;
    add_check(r, pre + "refused", t.status.ok() ? 0 : 1, "==", 0, t.status.message);
    if (!t.status.ok()) {
      r.row["retarget"][key] = row;
      return;
    }
    check_own_clip_retargeted(c, src, t, pre, r, row);
  }
  const double mpu = c.meters_per_unit;
  const rig::Skeleton& sk = c.skeleton;
  const int n = static_cast<int>(t.times.size());

  // Body = every vertex not in T (tail bones' skin, or the rigger tail detect
  // found). Its lowest point leaves carried objects out (carried_object_vertices); its
  // torn edges keep them, as Blender's whole-body count does.
  const std::vector<bool> tail_bone = rig::tail_joint_mask(sk);
  const int nv = c.mesh.vertex_count();
  const rig::Welded& w = target.welded;
  std::vector<char> body(nv, 1);
  for (int v = 0; v < nv; ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d >= 0 && tail_bone[d]) body[v] = 0;
  }
  for (int v : to.grounding.tail_vertices) body[v] = 0;
  const std::vector<char>& prop = target.prop;
  const int prop_vertices = static_cast<int>(std::count(prop.begin(), prop.end(), 1));
  // The floor: the scene's y = floor_y (glTF is Y up; a character's own
  // clips stand on y = 0, also when its bind pose does not: the Cyberpunk
  // character's bind mesh floats 0.74 m above it). The pipeline's floor
  // (the bind pose's lowest body point) is reported beside it.
  const double floor = e.floor_y / mpu;
  double bind_floor = kInf;
  for (int v = 0; v < nv; ++v)
    if (body[v] && !prop[v]) bind_floor = std::min(bind_floor, c.mesh.positions[v].y());

  // Legs move: per thigh joint, the largest angle between two of its
  // rotations relative to the pelvis over the clip (its local rotation when
  // it hangs from the pelvis; a rig family's hip joints between them, the
  // Wolf's BackShoulder and BackLeg, swing the leg as much as the thigh
  // does); the smallest over the thighs.
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

  // Stance from the source's own feet, independent of whether (and where) the
  // pipeline found and pinned the target's: per side, the keys where the
  // source's ankle (foot joint) is within kStanceBand leg lengths of its own
  // lowest level over the clip (flat-foot stance: heel strike and toe-off,
  // where the ankle is raised, are left out; an in-place clip whose stance
  // foot slides still counts).
  const rig::Skeleton& ssk = src.source.skeleton;
  std::vector<std::vector<bool>> stance_of_side(2, std::vector<bool>(n, false));  // left, right
  int source_feet = 0;
  {
    std::vector<std::vector<rig::Mat4>> src_pose(n);
    for (int k = 0; k < n; ++k) src_pose[k] = rig::pose_at(ssk, clip, t.start_time + t.times[k]);
    auto bpos = [&](int j) { return Vec3(ssk.bind_world[j].block<3, 1>(0, 3)); };
    for (const rig::Leg& leg : rig::find_legs(ssk)) {
      if (leg.side == rig::Side::kCenter) continue;
      const double band =
          kStanceBand * ((bpos(leg.thigh) - bpos(leg.shin)).norm() + (bpos(leg.shin) - bpos(leg.foot)).norm());
      auto& side = stance_of_side[leg.side == rig::Side::kLeft ? 0 : 1];
      {
        const int j = leg.foot;  // the ankle: toe joints dip in swing and pivot at toe-off
        double own_floor = kInf;
        for (int k = 0; k < n; ++k) own_floor = std::min(own_floor, src_pose[k][j](1, 3));
        for (int k = 0; k < n; ++k) side[k] = side[k] || src_pose[k][j](1, 3) <= own_floor + band;
      }
      ++source_feet;
    }
    // Landing and lift-off: the target's foot, of other proportions, may
    // still be on its way down when the source's ankle is already low. Each
    // stance run loses kStanceTrimS at an end inside the clip (its middle key
    // stays).
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
  // Target legs by side: skin dominated by its thigh, shin, foot and toe
  // joints (its lowest vertex is the sole, also when the shoe is skinned to
  // the shin and the foot joint is a weightless IK target).
  std::vector<std::vector<int>> foot_v(2);
  for (int v = 0; v < nv; ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d < 0) continue;
    const rig::Role role = sk.roles[d];
    const bool leg = role.part == BodyPart::kThigh || role.part == BodyPart::kShin || role.part == BodyPart::kFoot ||
                     role.part == BodyPart::kToe;
    if (leg && role.side != rig::Side::kCenter) foot_v[role.side == rig::Side::kLeft ? 0 : 1].push_back(v);
  }
  std::vector<char> body_w(w.count(), 1);
  for (int v = 0; v < nv; ++v)
    if (!body[v]) body_w[w.weld_of[v]] = 0;
  std::vector<std::pair<int, int>> body_edges;
  for (const auto& ed : rig::unique_edges(w.triangles))
    if (body_w[ed.first] && body_w[ed.second]) body_edges.push_back(ed);
  std::vector<Vec3> bind_w(w.count()), posed_w(w.count());
  for (int i = 0; i < w.count(); ++i) bind_w[i] = c.mesh.positions[w.representative[i]];

  double foot_err = kNaN, lowest_err = kNaN, lift = 0.0, lowest_min = kInf, lowest_max = -kInf, prop_min = kInf;
  std::string lowest_where, foot_where;
  std::vector<long> stance_per_foot(2, 0);
  std::vector<double> ratios;
  // SPEC §7: 24 evenly spaced times over the clip (as `harness stretch`,
  // Blender's measure_stretch.py and the artist clip below), not keys: a
  // short clip's keys would repeat.
  std::vector<double> torn_times;
  for (int i = 0; i < kTornSamples && n > 0; ++i) torn_times.push_back(t.clip.duration * i / kTornSamples);
  std::vector<int> torn_by_joint(sk.size(), 0);
  for (double time : torn_times) {
    std::vector<rig::Transform> locals = sk.neutral_local;
    rig::apply_clip(t.clip, time, locals);
    const auto pos = rig::skin_positions(c.mesh, c.skin, sk, rig::local_to_world(sk, locals));
    for (int i = 0; i < w.count(); ++i) posed_w[i] = pos[w.representative[i]];
    for (const auto& [a, b] : body_edges) {  // as measure::append_edge_ratios, keeping who tears
      const double l0 = (bind_w[a] - bind_w[b]).norm();
      if (!(l0 > 0)) continue;
      const double ratio = (posed_w[a] - posed_w[b]).norm() / l0;
      ratios.push_back(ratio);
      if (ratio > measure::kTornAbove || ratio < measure::kTornBelow)
        ++torn_by_joint[std::max(0, rig::dominant_joint(c.skin.influences[w.representative[a]]))];
    }
  }
  for (int k = 0; k < n; ++k) {
    lift = std::max(lift, k < static_cast<int>(t.lift.size()) ? t.lift[k] : 0.0);
    if (!stance_of_side[0][k] && !stance_of_side[1][k]) continue;
    std::vector<rig::Transform> locals = sk.neutral_local;
    rig::apply_clip(t.clip, t.times[k], locals);
    const auto pos = rig::skin_positions(c.mesh, c.skin, sk, rig::local_to_world(sk, locals));
    double low = kInf;
    int low_v = -1;
    for (int v = 0; v < nv; ++v) {
      if (body[v] && !prop[v] && pos[v].y() < low) low = pos[v].y(), low_v = v;
      if (prop[v]) prop_min = std::min(prop_min, (pos[v].y() - floor) * mpu);
    }
    if (low_v >= 0) {  // none when tail and props are all the skin: the check then fails on NaN
      const double h = (low - floor) * mpu;
      if (std::isnan(lowest_err) || std::abs(h) > lowest_err) {
        lowest_err = std::abs(h);
        const int d = rig::dominant_joint(c.skin.influences[low_v]);
        lowest_where = fmt("%.3f m", h) + " at " + fmt("%.2f s", t.times[k]) + " on " + (d >= 0 ? sk.names[d] : "?") + " skin";
      }
      lowest_min = std::min(lowest_min, h);
      lowest_max = std::max(lowest_max, h);
    }
    for (int side = 0; side < 2; ++side) {
      if (!stance_of_side[side][k] || foot_v[side].empty()) continue;
      ++stance_per_foot[side];
      double y = kInf;
      for (int v : foot_v[side]) y = std::min(y, pos[v].y());
      const double err = std::abs(y - floor) * mpu;
      if (std::isnan(foot_err) || err > foot_err) {
        foot_err = err;
        foot_where = fmt("%.3f m", (y - floor) * mpu) + " at " + fmt("%.2f s", t.times[k]) + (side == 0 ? " (left)" : " (right)");
      }
    }
  }
  const long min_foot = std::min(stance_per_foot[0], stance_per_foot[1]);
  const measure::StretchStats torn = measure::stretch_stats(ratios);
  // The same body edges over the character's own clip of that gait, when it
  // has one (reported): a rig whose skinning tears on its artist's own run
  // cannot tear less on a mocap run, whatever the retarget does.
  double own_torn = kNaN;
  std::string own_name;
  if (const int own = own_gait_clip(c, src.gait); own >= 0) {
    const rig::Clip& oc = c.clips[own];
    own_name = oc.name;
    std::vector<double> own_ratios;
    for (int i = 0; i < kTornSamples; ++i) {
      std::vector<rig::Transform> locals = sk.neutral_local;
      rig::apply_clip(oc, oc.duration * i / kTornSamples, locals);
      const auto pos = rig::skin_positions(c.mesh, c.skin, sk, rig::local_to_world(sk, locals));
      for (int q = 0; q < w.count(); ++q) posed_w[q] = pos[w.representative[q]];
      measure::append_edge_ratios(bind_w, posed_w, body_edges, own_ratios);
    }
    own_torn = measure::stretch_stats(own_ratios).torn_fraction;
  }
  std::string worst;  // joints whose skin holds most torn samples
  {
    std::vector<int> order(sk.size());
    for (int j = 0; j < sk.size(); ++j) order[j] = j;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return torn_by_joint[a] > torn_by_joint[b]; });
    const double total = std::max<double>(1.0, std::accumulate(torn_by_joint.begin(), torn_by_joint.end(), 0.0));
    for (int q = 0; q < 3 && q < sk.size() && torn_by_joint[order[q]] > 0; ++q)
      worst += (worst.empty() ? "" : ", ") + sk.names[order[q]] + " " + fmt("%.0f%%", 100.0 * torn_by_joint[order[q]] / total);
  }
  add_check(r, pre + "feet_pinned", static_cast<double>(t.feet.size()), "==", e.legs,
            t.feet.empty() ? "feet not pinned: " + t.limbs_note : "legs the pipeline pinned");
  add_check(r, pre + "stance_keys_min_foot", static_cast<double>(min_foot), ">", 0,
            std::to_string(source_feet) + " source feet; stance keys per target foot (left " +
                std::to_string(stance_per_foot[0]) + ", right " + std::to_string(stance_per_foot[1]) + ")");
  add_check(r, pre + "stance_foot_error_max_m", foot_err, "<=", kFloorTolerance,
            "lowest leg vertex vs the floor, source stance keys" + (foot_where.empty() ? "" : ": worst " + foot_where));
  add_check(r, pre + "lowest_point_error_max_m", lowest_err, "<=", kFloorTolerance,
            "lowest body vertex (carried props excluded) vs the floor, source stance keys: worst " + lowest_where +
                "; max body lift " + fmt("%.3f m", lift * mpu));
  if (std::isfinite(lowest_min)) {
    r.metrics[pre + "lowest_point_min_m"] = lowest_min;
    r.metrics[pre + "lowest_point_max_m"] = lowest_max;
  }
  if (prop_vertices > 0 && std::isfinite(prop_min)) {  // reported, not checked: the arms' pose, not grounding
    r.metrics[pre + "prop_lowest_point_min_m"] = prop_min;
  }
  if (e.tail == "none")  // floor placement never driven by a misdetected region (issue 11)
    add_check(r, pre + "rigger_tail_vertices", tail_found, "==", 0,
              "no-tail character: skin kept out of body grounding as a boneless tail");
  // A low-poly quadruped tears on its artist's own walk already (the Fox
  // 3.2 %): its bar for a walk of another animal is relative to that.
  double torn_max = e.body_torn_max;
  std::string bar;
  if (src.torn_vs_own > 0 && std::isfinite(own_torn) && src.torn_vs_own * own_torn > torn_max) {
    torn_max = src.torn_vs_own * own_torn;
    bar = "; bar " + fmt("%.2f", src.torn_vs_own) + " x its own " + own_name + "'s " + fmt("%.4f", own_torn);
  }
  add_check(r, pre + "body_torn_fraction", torn.torn_fraction, "<=", torn_max,
            std::to_string(body_edges.size()) + " body edges x " + std::to_string(torn_times.size()) + " samples, p99 " +
                fmt("%.3f", torn.p99) + (worst.empty() ? "" : "; torn skin mostly on " + worst) + bar);
  r.metrics[pre + "body_lift_max_m"] = lift * mpu;
  r.metrics[pre + "body_p99"] = torn.p99;
  r.metrics[pre + "floor_alignment_m"] = t.floor_alignment * mpu;
  r.metrics[pre + "arm_turn_max_deg"] = t.diagnostics.max_arm_turn * 180.0 / M_PI;
  r.metrics[pre + "pipeline_floor_m"] = t.floor_y * mpu;
  r.metrics[pre + "bind_floor_m"] = bind_floor * mpu;
  row["legs_range_deg"] = leg_range;
  row["foot_err_m"] = foot_err;
  row["lowest_err_m"] = lowest_err;
  row["body_torn"] = torn.torn_fraction;
  if (std::isfinite(own_torn)) {
    r.metrics[pre + "artist_clip_body_torn"] = own_torn;
    row["artist_clip"] = own_name;
    row["artist_clip_body_torn"] = own_torn;
  }
  row["lift_m"] = lift * mpu;
  row["prop_vertices"] = prop_vertices;
  row["feet"] = static_cast<int>(t.feet.size());
  row["rigger_tail_vertices"] = tail_found;
  if (t.feet.empty()) row["limbs_note"] = t.limbs_note;
  if (!worst.empty()) row["torn_on"] = worst;
  for (auto& [k, v] : row.items())
    if (v.is_number_float() && !std::isfinite(v.get<double>())) v = nullptr;
  r.row["retarget"][key] = row;
}

}  // namespace harness::corpus
