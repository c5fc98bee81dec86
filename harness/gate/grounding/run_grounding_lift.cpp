// grounding_pelvis_lift (run_grounding.cpp): per source, the final hips with
// the tail counted vs excluded in body grounding, SPEC §5's table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "rig/retarget/contact/grounding.h"
#include "rig/retarget/contact/placement.h"
#include "rig/model/pose.h"
#include "rig/retarget/retarget.h"
#include "harness/gate/grounding/run_grounding.h"
#include "harness/gate/lowest_skin.h"

namespace harness::grounding {
namespace {

// World matrices of `clip` at `t` on the neutral (bind) locals: what
// retargeting and grounding see (the stored/live pose is never read).
std::vector<rig::Mat4> world_at(const rig::Skeleton& sk, const rig::Clip& clip, double t) {
  std::vector<rig::Transform> locals = sk.neutral_local;
  rig::apply_clip(clip, t, locals);
  return rig::local_to_world(sk, locals);
}

std::vector<double> hips_heights(const rig::Skeleton& sk, const rig::Clip& clip, int hips,
                                 const std::vector<double>& times, double mpu) {
  std::vector<double> out;
  for (double t : times) out.push_back(world_at(sk, clip, t)[hips](1, 3) * mpu);
  return out;
}

// The vertices rig::place_on_floor takes the body's bottom from: those its
// tail_skin_mask leaves (every vertex when it leaves none). Once per
// character, not per sample (issue 47).
std::vector<int> body_vertices(const rig::Character& c) {
  const std::vector<bool> tail = rig::tail_skin_mask(c);
  std::vector<int> body;
  for (int v = 0; v < c.mesh.vertex_count(); ++v)
    if (v >= static_cast<int>(tail.size()) || !tail[v]) body.push_back(v);
  if (body.empty())
    for (int v = 0; v < c.mesh.vertex_count(); ++v) body.push_back(v);
  return body;
}

// Lowest body point (tail-dominated skin ignored, rig::place_on_floor's
// body_bottom) at a time; `body` = body_vertices(c): the lowest of them as
// rig::skin_vertices places them (PosedSkin: only the parts of the body
// that can be lowest are skinned).
class BodyBottom {
 public:
  BodyBottom(const rig::Character& c, const std::vector<int>& body)
      : c_(c), index_(rig::index_lowest_skin(c, body)), skin_(c) {}
  double at(const rig::Clip& clip, double t) {
    skin_.pose(world_at(c_.skeleton, clip, t));
    return skin_.lowest(index_).y;
  }

 private:
  const rig::Character& c_;
  rig::LowestSkinIndex index_;
  PosedSkin skin_;
};

// The joint dominating the lowest non-tail-dominated vertex at t (what sets
// the body's bottom), by name.
std::string body_bottom_joint(const rig::Character& c, const rig::Clip& clip, double t) {
  const std::vector<rig::Vec3> posed = rig::skin_positions(c.mesh, c.skin, c.skeleton, world_at(c.skeleton, clip, t));
  const std::vector<bool> tail = rig::tail_joint_mask(c.skeleton);
  int best = -1;
  for (size_t v = 0; v < posed.size(); ++v) {
    const int d = rig::dominant_joint(c.skin.influences[v]);
    if (d < 0 || tail[d]) continue;
    if (best < 0 || posed[v].y() < posed[best].y()) best = static_cast<int>(v);
  }
  return best < 0 ? std::string("-") : c.skeleton.names[rig::dominant_joint(c.skin.influences[best])];
}

std::string fmt_time(double t) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", t);
  return b;
}

// Sample indices for the table: nearest sample to each fraction of the
// duration, plus the sample of largest extra lift; ascending, unique.
std::vector<size_t> table_rows(const std::vector<double>& times, const std::vector<double>& extra,
                               const std::vector<double>& fractions) {
  std::vector<size_t> rows;
  const double d = times.back();
  for (double f : fractions) {
    size_t best = 0;
    for (size_t k = 1; k < times.size(); ++k)
      if (std::abs(times[k] - f * d) < std::abs(times[best] - f * d)) best = k;
    rows.push_back(best);
  }
  rows.push_back(static_cast<size_t>(std::max_element(extra.begin(), extra.end()) - extra.begin()));
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

}  // namespace

// ---------------------------------------------------------------------------
// grounding_pelvis_lift: SPEC §5's back flip table. Per source: final hips
// tracks with the tail counted in both minima vs excluded from both, the
// extra lift, and the body's clearance at the end.
Status pelvis_lift(const Scenario& s, ScenarioResult& out) {
  Target t;
  if (Status st = load_target(s, t); !st.ok()) return st;
  const double rate = param(s, "sample_rate_hz", 30.0);
  const std::vector<double> fractions = s.raw.value("table_fractions", std::vector<double>{0.6, 0.8, 0.95, 1.0});
  if (!s.raw.contains("sources") || !s.raw["sources"].is_array()) return bad(s, "\"sources\" (a list) is required");
  const rig::Calibration dst_cal = rig::calibrate(t.fixed.skeleton);
  const rig::Placement bind = rig::place_on_floor(t.fixed);
  const double mpu = t.mpu;
  out.metrics["tail_bones"] = t.tail_bones;
  out.metrics["reference_floor_body_m"] = bind.body_bottom * mpu;
  out.metrics["reference_floor_whole_mesh_m"] = bind.mesh_bottom * mpu;
  out.metrics["hips_bind_height_m"] = t.fixed.skeleton.bind_world[t.hips](1, 3) * mpu;
  // The target prepared once per grounding for every source.
  const rig::GroundingOptions counting = grounding_from(s, mpu, true), excluding = grounding_from(s, mpu, false);
  rig::GroundingOptions raw_opt = grounding_from(s, mpu, false);
  raw_opt.smoothing_radius_s = 0;
  // One support for the three when it serves them all (rig::support_serves).
  const rig::TargetSupport prepared_excluding = prepare(t.fixed, dst_cal, excluding, rate);
  const std::optional<rig::TargetSupport> own_counting =
      rig::support_serves(excluding, counting) ? std::nullopt
                                               : std::optional(prepare(t.fixed, dst_cal, counting, rate));
  const std::optional<rig::TargetSupport> own_raw =
      rig::support_serves(excluding, raw_opt) ? std::nullopt : std::optional(prepare(t.fixed, dst_cal, raw_opt, rate));
  const rig::TargetSupport& prepared_counting = own_counting ? *own_counting : prepared_excluding;
  const rig::TargetSupport& prepared_raw = own_raw ? *own_raw : prepared_excluding;
  BodyBottom body_bottom(t.fixed, body_vertices(t.fixed));
  for (const json& spec : s.raw["sources"]) {
    Source src;
    if (Status st = load_source(s, spec, t, src); !st.ok()) return st;
    const rig::Calibration src_cal = rig::calibrate(src.ch.skeleton);
    // The three groundings (the raw lift: no smoothing) from one posed clip.
    const rig::GroundingOptions groundings[] = {counting, excluding, raw_opt};
    const rig::TargetSupport* supports[] = {&prepared_counting, &prepared_excluding, &prepared_raw};
    std::vector<Transfer> runs = transfers(src, src_cal, t.fixed, dst_cal, supports, groundings, rate);
    const Transfer& counted = runs[0];
    const Transfer& excluded = runs[1];
    if (counted.times.empty() || excluded.times.empty() || counted.times != excluded.times)
      return bad(s, src.label + ": retarget gave no hips motion");
    const std::vector<double>& times = excluded.times;
    const std::vector<double> hc = hips_heights(t.fixed.skeleton, counted.clip, t.hips, times, mpu);
    const std::vector<double> he = hips_heights(t.fixed.skeleton, excluded.clip, t.hips, times, mpu);
    std::vector<double> extra(times.size());
    for (size_t k = 0; k < times.size(); ++k) extra[k] = hc[k] - he[k];
    const std::string pre = src.key.empty() ? "" : src.key + ".";
    json table = json::array();
    for (size_t k : table_rows(times, extra, fractions)) {
      table.push_back({{"time", times[k]}, {"hips_tail_counted", hc[k]}, {"hips_tail_excluded", he[k]}, {"extra_lift", extra[k]}});
      // Numeric copies so the golden pins every table cell.
      const std::string row = pre + "lift_at_" + fmt_time(times[k]) + "s.";
      out.metrics[row + "hips_tail_counted_m"] = hc[k];
      out.metrics[row + "hips_tail_excluded_m"] = he[k];
      out.metrics[row + "extra_lift_m"] = extra[k];
    }
    out.metrics[pre + "lift_table"] = table;
    const double end = times.back();
    const size_t kmax = static_cast<size_t>(std::max_element(extra.begin(), extra.end()) - extra.begin());
    out.metrics[pre + "final_body_clearance"] = (body_bottom.at(excluded.clip, end) - bind.body_bottom) * mpu;
    {
      // Where the body ends: its lowest skin's joint and the pinned soles.
      double sole = std::numeric_limits<double>::infinity();
      for (const rig::FootReport& f : excluded.feet)
        if (!f.clearance_after.empty()) sole = std::min(sole, f.clearance_after.back());
      if (sole < std::numeric_limits<double>::infinity()) out.metrics[pre + "final_sole_clearance_m"] = sole * mpu;
      out.notes.push_back(src.label + ": lowest body skin at the end is on " + body_bottom_joint(t.fixed, excluded.clip, end));
      // The contact phases (detected before the lift; E holds a foot only in them).
      for (const rig::FootReport& f : excluded.feet) {
        std::string ph;
        for (const rig::ContactPhase& p : f.phases)
          ph += (ph.empty() ? "" : ", ") + fmt_time(times[p.first]) + "-" + fmt_time(times[p.last]);
        out.notes.push_back(src.label + ": contact phases of " + t.fixed.skeleton.names[f.leg.foot] + " (s): " +
                            (ph.empty() ? std::string("none") : ph));
      }
    }
    out.metrics[pre + "final_body_clearance_tail_counted_m"] = (body_bottom.at(counted.clip, end) - bind.body_bottom) * mpu;
    out.metrics[pre + "max_extra_lift_m"] = extra[kmax];
    out.metrics[pre + "max_extra_lift_time_s"] = times[kmax];
    out.metrics[pre + "min_extra_lift_m"] = *std::min_element(extra.begin(), extra.end());
    out.metrics[pre + "final_extra_lift_m"] = extra.back();
    out.metrics[pre + "final_lift_tail_excluded_m"] = excluded.lift.back() * mpu;
    // Floor alignment must not see the tail: the same in both runs, so the
    // extra lift is the tail's effect on body grounding alone.
    out.metrics[pre + "floor_alignment_m"] = excluded.floor_alignment * mpu;
    out.metrics[pre + "floor_alignment_counted_minus_excluded_m"] =
        (counted.floor_alignment - excluded.floor_alignment) * mpu;
    out.metrics[pre + "final_lift_tail_counted_m"] = counted.lift.back() * mpu;
    out.metrics[pre + "max_lift_tail_excluded_m"] = *std::max_element(excluded.lift.begin(), excluded.lift.end()) * mpu;
    out.metrics[pre + "max_lift_tail_counted_m"] = *std::max_element(counted.lift.begin(), counted.lift.end()) * mpu;
    out.metrics[pre + "duration_s"] = end;
    out.metrics[pre + "samples"] = static_cast<double>(times.size());
    std::vector<double> lc, le, clear_e, clear_c;
    std::vector<double> raw_e = runs[2].lift;
    for (double& x : raw_e) x *= mpu;
    for (size_t k = 0; k < times.size(); ++k) {
      lc.push_back(counted.lift[k] * mpu);
      le.push_back(excluded.lift[k] * mpu);
      clear_e.push_back((body_bottom.at(excluded.clip, times[k]) - bind.body_bottom) * mpu);
      clear_c.push_back((body_bottom.at(counted.clip, times[k]) - bind.body_bottom) * mpu);
    }
    {
      // Deepest body sink over the clip (tail excluded) and what sinks: skin
      // the limb solvers own (feet, near-ankle shins) outside contact phases
      // is not grounded by design.
      const size_t kl = static_cast<size_t>(std::min_element(clear_e.begin(), clear_e.end()) - clear_e.begin());
      out.metrics[pre + "min_body_clearance_m"] = clear_e[kl];
      out.metrics[pre + "min_body_clearance_time_s"] = times[kl];
      out.notes.push_back(src.label + ": deepest body point " + fmt_time(clear_e[kl]) + " m at " + fmt_time(times[kl]) +
                          " s, on " + body_bottom_joint(t.fixed, excluded.clip, times[kl]) + "; at 0 s on " +
                          body_bottom_joint(t.fixed, excluded.clip, 0.0));
    }
    out.series["lift_curves"][src.key.empty() ? "main" : src.key] = {
        {"label", src.label},       {"times", times},          {"hips_tail_counted", hc},
        {"hips_tail_excluded", he}, {"lift_tail_counted", lc}, {"lift_tail_excluded", le},
        {"body_clearance_tail_counted", clear_c}, {"body_clearance_tail_excluded", clear_e},
        {"raw_lift_tail_excluded", raw_e}};
    // Where the source's own feet are, relative to its bind-pose floor (lowest
    // foot/toe joint at bind): tells a source that does not stand on its bind
    // floor from a retarget or grounding error.
    {
      const rig::Skeleton& ss = src.ch.skeleton;
      double bind_low = std::numeric_limits<double>::infinity(), first = bind_low, last = bind_low;
      const auto w0 = world_at(ss, src.clip, 0.0), w1 = world_at(ss, src.clip, src.clip.duration);
      for (int j = 0; j < ss.size(); ++j) {
        const rig::BodyPart p = ss.roles[j].part;
        if (p != rig::BodyPart::kFoot && p != rig::BodyPart::kToe) continue;
        bind_low = std::min(bind_low, ss.bind_world[j](1, 3));
        first = std::min(first, w0[j](1, 3));
        last = std::min(last, w1[j](1, 3));
      }
      out.metrics[pre + "source_feet_above_bind_floor_start_m"] = (first - bind_low) * src.ch.meters_per_unit;
      out.metrics[pre + "source_feet_above_bind_floor_end_m"] = (last - bind_low) * src.ch.meters_per_unit;
      out.metrics[pre + "source_meters_per_unit"] = src.ch.meters_per_unit;
    }
  }
  return Status::Ok();
}

}  // namespace harness::grounding
