// Solver invariants under the SPEC §4 hip swing: fast_hip_swing (neighbour
// ratio, length, excursion; historical bugs as variants), lr_symmetry (mirror
// in, mirror out) and bend_smoothness (bend coupling on vs off).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "harness/gate/solver/solver_invariants_common.h"

namespace harness::solver_invariants {

using nlohmann::json;

namespace {

// Worst ratio of a bone's angle range to the largest range of its neighbours
// plus `slack_deg` (so tiny ranges do not blow the ratio up); 1 for one bone.
double neighbour_ratio(const std::vector<double>& range, double slack_deg) {
  double worst = 1.0;
  if (range.size() < 2) return worst;
  for (size_t i = 0; i < range.size(); ++i) {
    double nb = 0.0;
    if (i > 0) nb = std::max(nb, range[i - 1]);
    if (i + 1 < range.size()) nb = std::max(nb, range[i + 1]);
    worst = std::max(worst, range[i] / (nb + slack_deg));
  }
  return worst;
}

// ---------------------------------------------------------------------------
// bend_smoothness: under the hip swing, the bend of each link (hips-frame
// swing from its settled rest direction) compared with its neighbour's;
// with coupling (k = 12 /s) against k = 0 in the same run.
struct BendStats {
  double max_adjacent_deg = 0;   // max over frames/links of angle(s_i, s_{i-1}), s_-1 = identity
  double mean_adjacent_deg = 0;  // mean over frames and links
  double max_bend_deg = 0;       // max local bend past the rest pose (SPEC theta_i)
  double mean_bend_deg = 0;
};

// s_i = hips-frame swing of link i from its settled rest direction (frame 0);
// theta_i = angle of bone i's output local rotation from its corrected rest
// local rotation (the bend past rest in the parent's frame, SPEC §4).
BendStats bend_stats(const solver::ChainDesc& desc, const Run& r) {
  BendStats b;
  const auto& rest = r.points_hips.front();
  const size_t n = rest.size() - 1;
  double sum = 0, sum_b = 0;
  long count = 0;
  for (size_t f = 0; f < r.points_hips.size(); ++f) {
    const auto& pts = r.points_hips[f];
    Quaterniond prev = Quaterniond::Identity();
    for (size_t i = 0; i < n; ++i) {
      const Vector3d r0 = (rest[i + 1] - rest[i]).normalized();
      const Vector3d d = (pts[i + 1] - pts[i]).normalized();
      const Quaterniond q = Quaterniond::FromTwoVectors(r0, d);
      const double adj = q.angularDistance(prev) / kDeg;
      const double bend = r.local[f][i].angularDistance(desc.links[i].rest_local_rotation) / kDeg;
      b.max_adjacent_deg = std::max(b.max_adjacent_deg, adj);
      b.max_bend_deg = std::max(b.max_bend_deg, bend);
      sum += adj;
      sum_b += bend;
      ++count;
      prev = q;
    }
  }
  b.mean_adjacent_deg = count ? sum / count : 0;
  b.mean_bend_deg = count ? sum_b / count : 0;
  return b;
}

}  // namespace

// ---------------------------------------------------------------------------
// fast_hip_swing: SPEC §4's "95° vs 3°" test on chains of several lengths.
Status fast_hip_swing(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base;
  if (Status st = base_params(s, base); !st.ok()) return st;
  const std::vector<int> chains = chains_from(s, {1, 2, 3, 4, 6, 8});
  const double fps = param(s, "fps", 60.0), duration = param(s, "duration_s", 3.0);
  const double slack = param(s, "neighbour_slack_deg", 1.0);
  const double factor = param(s, "neighbour_factor", 2.0);
  const double max_len_err = param(s, "max_length_error_rel", 1e-5);
  const double min_exc = param(s, "min_tip_excursion_rel", 0.25);
  const HipSwing motion = swing_from(s);
  struct Variant {
    std::string prefix;
    solver::ChainParams p;
    SeededBugs bugs;
  };
  std::vector<Variant> variants = {{"", base, {}}};
  // Extra variants: name -> solver overrides on top of "solver" (the
  // historical bugs by default); metrics prefixed "<name>.".
  json extra = s.raw.value("variants_solver", json{{"bug_rope_velocity_feedback", {{"test_bug_rope_velocity_feedback", true}}},
                                                   {"bug_fixed_fraction_follow", {{"test_bug_fixed_fraction_follow", true}}}});
  for (const auto& [name, overrides] : extra.items()) {
    Variant v{name + ".", base, {}};
    if (Status st = variant_params(s, name, overrides, v.p, v.bugs); !st.ok()) return st;
    variants.push_back(v);
  }
  for (const Variant& v : variants) {
    double worst_ratio = 0, worst_len = 0, worst_radial = 0, min_excursion = 1e30;
    int nans = 0, failed = 0;
    for (int n : chains) {
      const SynthSpec sp = synth_from(s, n);
      solver::ChainDesc desc;
      if (Status st = build(s, make_rig(sp), v.p, desc, v.bugs); !st.ok()) return st;
      const Run r = run_motion(desc, v.p, motion, fps, duration, v.bugs);
      const double ratio = neighbour_ratio(r.angle_range_deg, slack);
      const double exc = r.tip_excursion / sp.length;
      const std::string pre = v.prefix + "bones_" + std::to_string(n) + ".";
      out.metrics[pre + "max_neighbour_ratio"] = ratio;
      out.metrics[pre + "max_length_error_rel"] = r.max_length_error;
      out.metrics[pre + "nan_count"] = r.nan_count;
      out.metrics[pre + "tip_excursion_rel"] = exc;
      out.metrics[pre + "max_angle_range_deg"] = *std::max_element(r.angle_range_deg.begin(), r.angle_range_deg.end());
      out.metrics[pre + "min_angle_range_deg"] = *std::min_element(r.angle_range_deg.begin(), r.angle_range_deg.end());
      out.metrics[pre + "max_radial_velocity_mps"] = r.max_radial_velocity;
      if (v.prefix.empty()) out.series["angle_range_deg"]["bones_" + std::to_string(n)] = r.angle_range_deg;
      worst_ratio = std::max(worst_ratio, ratio);
      worst_len = std::max(worst_len, r.max_length_error);
      worst_radial = std::max(worst_radial, r.max_radial_velocity);
      min_excursion = std::min(min_excursion, exc);
      nans += r.nan_count;
      const bool pass = r.nan_count == 0 && r.max_length_error <= max_len_err && ratio <= factor && exc >= min_exc;
      if (!pass) ++failed;
    }
    out.metrics[v.prefix + "max_neighbour_ratio"] = worst_ratio;
    out.metrics[v.prefix + "max_length_error_rel"] = worst_len;
    out.metrics[v.prefix + "max_radial_velocity_mps"] = worst_radial;
    out.metrics[v.prefix + "min_tip_excursion_rel"] = min_excursion;
    out.metrics[v.prefix + "nan_count"] = nans;
    out.metrics[v.prefix + "failed_chains"] = failed;
  }
  char note[256];
  std::snprintf(note, sizeof note,
                "pass per chain: no NaN, length error <= %g, angle range <= %g x (neighbours' max + %g deg), "
                "tip excursion >= %g of the tail length",
                max_len_err, factor, slack, min_exc);
  out.notes.push_back(note);
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// lr_symmetry: a mirrored hips motion (x -> -x, yaw -> -yaw) gives the
// mirrored tail, every displayed point, every frame.
Status lr_symmetry(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams p;
  if (Status st = base_params(s, p); !st.ok()) return st;
  const std::vector<int> chains = chains_from(s, {1, 2, 3, 4, 6, 8});
  const double fps = param(s, "fps", 60.0), duration = param(s, "duration_s", 3.0);
  const double H = param(s, "model_height_m", 1.9);
  double worst = 0, min_lateral = 1e30;
  // Optionally the same with every tail bone in its own (non-mirrored) bind
  // frame: the response must not depend on the bone axes (SPEC §4 hips frame).
  std::vector<bool> twists = {false};
  if (param(s, "twisted_frames", false)) twists.push_back(true);
  for (bool twist : twists)
  for (int n : chains) {
    SynthSpec sp = synth_from(s, n);
    sp.twist_bones = twist;
    solver::ChainDesc desc;
    if (Status st = build(s, make_rig(sp), p, desc); !st.ok()) return st;
    HipSwing right = swing_from(s), left = right;
    left.sign = -1.0;
    const Run a = run_motion(desc, p, right, fps, duration);
    const Run b = run_motion(desc, p, left, fps, duration);
    double err = 0, lateral = 0;
    for (size_t f = 0; f < a.points.size(); ++f)
      for (size_t i = 0; i < a.points[f].size(); ++i) {
        Vector3d m = b.points[f][i];
        m.x() = -m.x();
        const double e = (m - a.points[f][i]).norm();
        err = std::isfinite(e) ? std::max(err, e) : std::numeric_limits<double>::infinity();
        lateral = std::max(lateral, std::abs(a.points_hips[f][i].x()));
      }
    const std::string pre = std::string(twist ? "twisted." : "") + "bones_" + std::to_string(n) + ".";
    out.metrics[pre + "max_mirror_error_rel_H"] = err / H;
    out.metrics[pre + "max_lateral_swing_m"] = lateral;
    out.metrics[pre + "nan_count"] = a.nan_count + b.nan_count;
    worst = std::max(worst, err / H);
    min_lateral = std::min(min_lateral, lateral);
  }
  out.metrics["max_mirror_error_rel_H"] = worst;
  out.metrics["min_lateral_swing_m"] = min_lateral;
  return Status::Ok();
}

Status bend_smoothness(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams p;
  if (Status st = base_params(s, p); !st.ok()) return st;
  solver::ChainParams k0 = p;
  k0.bend_coupling_rate = 0.0;
  const std::vector<int> chains = chains_from(s, {2, 4, 8});
  const double fps = param(s, "fps", 60.0), duration = param(s, "duration_s", 3.0);
  const HipSwing motion = swing_from(s);
  double worst = 0, worst_k0 = 0, worst_bend = 0, min_gain = 1e30, min_mean_gain = 1e30;
  for (int n : chains) {
    const SynthSpec sp = synth_from(s, n);
    const SynthRig rig = make_rig(sp);
    solver::ChainDesc desc, desc0;
    if (Status st = build(s, rig, p, desc); !st.ok()) return st;
    if (Status st = build(s, rig, k0, desc0); !st.ok()) return st;
    const Run a = run_motion(desc, p, motion, fps, duration);
    const Run b = run_motion(desc0, k0, motion, fps, duration);
    const BendStats ba = bend_stats(desc, a), bb = bend_stats(desc0, b);
    const std::string pre = "bones_" + std::to_string(n) + ".";
    for (const auto& [px, bs] : {std::pair<std::string, const BendStats*>{"", &ba}, {"k0.", &bb}}) {
      out.metrics[px + pre + "max_adjacent_bend_deg"] = bs->max_adjacent_deg;
      out.metrics[px + pre + "mean_adjacent_bend_deg"] = bs->mean_adjacent_deg;
      out.metrics[px + pre + "max_bend_deg"] = bs->max_bend_deg;
      out.metrics[px + pre + "mean_bend_deg"] = bs->mean_bend_deg;
    }
    out.metrics[pre + "nan_count"] = a.nan_count + b.nan_count;
    worst = std::max(worst, ba.max_adjacent_deg);
    worst_k0 = std::max(worst_k0, bb.max_adjacent_deg);
    worst_bend = std::max(worst_bend, ba.max_bend_deg);
    min_gain = std::min(min_gain, bb.max_adjacent_deg - ba.max_adjacent_deg);
    min_mean_gain = std::min(min_mean_gain, bb.mean_adjacent_deg - ba.mean_adjacent_deg);
  }
  out.metrics["max_bend_deg"] = worst_bend;
  out.metrics["max_adjacent_bend_deg"] = worst;
  out.metrics["k0.max_adjacent_bend_deg"] = worst_k0;
  out.metrics["min_coupling_reduction_max_deg"] = min_gain;
  out.metrics["min_coupling_reduction_mean_deg"] = min_mean_gain;
  return Status::Ok();
}

}  // namespace harness::solver_invariants
