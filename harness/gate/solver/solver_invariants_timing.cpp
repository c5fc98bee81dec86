// Solver invariants over time: fps_independence (same tip path at any frame
// rate), teleport (a hips jump is absorbed) and loop_closure (a looping clip's
// tail state closes, live and baked).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "solver/bake.h"
#include "harness/gate/solver/solver_invariants_common.h"

namespace harness::solver_invariants {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------
// fps_independence: tip trajectory at several frame rates, compared at the
// frames of the lowest rate (higher rates linearly interpolated in time).
Vector3d tip_at(const Run& r, double fps, double t) {
  const double x = t * fps;
  const size_t k = static_cast<size_t>(std::floor(x + 1e-9));
  if (k + 1 >= r.tip_world.size()) return r.tip_world.back();
  const double a = std::clamp(x - static_cast<double>(k), 0.0, 1.0);
  return (1 - a) * r.tip_world[k] + a * r.tip_world[k + 1];
}

double fps_spread(const solver::ChainDesc& desc, const solver::ChainParams& p, const SeededBugs& bugs,
                  const Motion& motion, const std::vector<double>& rates, double duration) {
  std::vector<Run> runs;
  for (double fps : rates) runs.push_back(run_motion(desc, p, motion, fps, duration, bugs));
  const double lo = *std::min_element(rates.begin(), rates.end());
  const int frames = static_cast<int>(std::lround(duration * lo));
  double worst = 0;
  for (int k = 0; k <= frames; ++k) {
    const double t = k / lo;
    for (size_t a = 0; a < rates.size(); ++a)
      for (size_t b = a + 1; b < rates.size(); ++b) {
        const double e = (tip_at(runs[a], rates[a], t) - tip_at(runs[b], rates[b], t)).norm();
        worst = std::isfinite(e) ? std::max(worst, e) : std::numeric_limits<double>::infinity();
      }
  }
  return worst;
}

}  // namespace

Status fps_independence(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base;
  if (Status st = base_params(s, base); !st.ok()) return st;
  const std::vector<int> chains = chains_from(s, {1, 4, 8});
  const std::vector<double> rates =
      s.raw.contains("fps") ? s.raw["fps"].get<std::vector<double>>() : std::vector<double>{30, 60, 144};
  const double duration = param(s, "duration_s", 3.0);
  const double H = param(s, "model_height_m", 1.9);
  const HipSwing motion = swing_from(s);
  SeededBugs bug;
  bug.fixed_fraction_follow = true;
  double worst = 0, worst_bug = 0;
  for (int n : chains) {
    const SynthSpec sp = synth_from(s, n);
    const SynthRig rig = make_rig(sp);
    solver::ChainDesc desc;
    if (Status st = build(s, rig, base, desc); !st.ok()) return st;
    const double e = fps_spread(desc, base, {}, motion, rates, duration) / H;
    solver::ChainDesc bdesc;
    if (Status st = build(s, rig, base, bdesc, bug); !st.ok()) return st;
    const double eb = fps_spread(bdesc, base, bug, motion, rates, duration) / H;
    const Run r = run_motion(desc, base, motion, 60.0, duration);
    const std::string pre = "bones_" + std::to_string(n) + ".";
    out.metrics[pre + "max_spread_rel_H"] = e;
    out.metrics[pre + "tip_excursion_rel_H"] = r.tip_excursion / H;
    out.metrics["bug_fixed_fraction_follow." + pre + "max_spread_rel_H"] = eb;
    worst = std::max(worst, e);
    worst_bug = std::max(worst_bug, eb);
  }
  out.metrics["max_spread_rel_H"] = worst;
  out.metrics["bug_fixed_fraction_follow.max_spread_rel_H"] = worst_bug;
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// teleport: the hips jump far in one frame (optionally turning); the tail is
// carried along and is back in its carry pose (hips frame) within a deadline.
Status teleport(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams p;
  if (Status st = base_params(s, p); !st.ok()) return st;
  const std::vector<int> chains = chains_from(s, {1, 4, 8});
  const double fps = param(s, "fps", 60.0);
  const double H = param(s, "model_height_m", 1.9);
  const double jump_t = param(s, "jump_time_s", 1.0);
  const double jump = param(s, "jump_m", 10.0);
  const double turn = param(s, "jump_turn_deg", 0.0) * kDeg;
  const double settle = param(s, "settle_s", 0.5);
  const double duration = jump_t + param(s, "hold_s", 1.5);
  const double h = param(s, "hips_height_m", 1.0);
  // Rig units per metre (100: a centimetre rig): the rig and the hips path
  // are built in units and the solver told metres-per-unit; the solver
  // works in metres, so every metric must equal the metre rig's.
  const double units = param(s, "unit_scale", 1.0);
  if (!(units >= 1e-3 && units <= 1e3)) return bad(s, "unit_scale must be in [0.001, 1000]");
  p.meters_per_unit = 1.0 / units;
  const Motion motion = [&](double t) {
    return t < jump_t - 1e-9 ? hips_pose(Vector3d(0, h * units, 0), 0.0)
                             : hips_pose(Vector3d(jump * units, h * units, 0), turn);
  };
  // Extra variants (name -> solver overrides), e.g. teleport handling off,
  // to show the checks catch an unhandled jump; metrics prefixed "<name>.".
  struct Variant {
    std::string prefix;
    solver::ChainParams pv;
    SeededBugs bugs;
  };
  std::vector<Variant> variants = {{"", p, {}}};
  const json extra = s.raw.contains("variants_solver") ? s.raw["variants_solver"] : json::object();
  for (const auto& [name, overrides] : extra.items()) {
    Variant v{name + ".", p, {}};
    if (Status st = variant_params(s, name, overrides, v.pv, v.bugs); !st.ok()) return st;
    variants.push_back(v);
  }
  for (const auto& [prefix, pv, bugs] : variants) {
    double worst_after = 0, worst_len = 0;
    int nans = 0, min_teleports = 1 << 30, max_teleports = 0;
    for (int n : chains) {
      SynthSpec sp = synth_from(s, n);
      sp.unit_scale = units;
      solver::ChainDesc desc;
      if (Status st = build(s, make_rig(sp), pv, desc, bugs); !st.ok()) return st;
      const Run r = run_motion(desc, pv, motion, fps, duration, bugs);
      const auto& ref = r.points_hips.front();  // settled carry pose after reset
      double after = 0, during = 0;
      for (size_t f = 0; f < r.points_hips.size(); ++f) {
        const double t = f / fps;
        if (t < jump_t - 1e-9) continue;
        double d = 0;
        for (size_t i = 0; i < ref.size(); ++i) {
          const double e = (r.points_hips[f][i] - ref[i]).norm();
          d = std::isfinite(e) ? std::max(d, e) : std::numeric_limits<double>::infinity();
        }
        during = std::max(during, d);
        if (t >= jump_t + settle - 1e-9) after = std::max(after, d);
      }
      const std::string pre = prefix + "bones_" + std::to_string(n) + ".";
      out.metrics[pre + "nan_count"] = r.nan_count;
      out.metrics[pre + "max_length_error_rel"] = r.max_length_error;
      out.metrics[pre + "teleports"] = r.teleports;
      out.metrics[pre + "max_pose_error_rel_H"] = during / H;
      out.metrics[pre + "pose_error_after_settle_rel_H"] = after / H;
      out.metrics[pre + "tip_world_travel_m"] = (r.tip_world.back() - r.tip_world.front()).norm();
      worst_after = std::max(worst_after, after / H);
      worst_len = std::max(worst_len, r.max_length_error);
      nans += r.nan_count;
      min_teleports = std::min(min_teleports, r.teleports);
      max_teleports = std::max(max_teleports, r.teleports);
    }
    out.metrics[prefix + "nan_count"] = nans;
    out.metrics[prefix + "max_length_error_rel"] = worst_len;
    out.metrics[prefix + "pose_error_after_settle_rel_H"] = worst_after;
    out.metrics[prefix + "min_teleports"] = min_teleports;
    out.metrics[prefix + "max_teleports"] = max_teleports;
  }
  return Status::Ok();
}

// loop_closure: after warm-up the hips-frame tail state at the end of one
// loop equals the state at its start.
Status loop_closure(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base, p;
  if (Status st = base_params(s, base); !st.ok()) return st;
  FixtureChain fc;
  if (Status st = load_fixture_chain(s, s.clip, base, fc, p); !st.ok()) return st;
  const int loops = param(s, "warmup_loops", 10);
  if (loops < 2) return bad(s, "warmup_loops must be >= 2");
  // One warm-up + closure measurement at a frame rate; metrics prefixed.
  auto run_at = [&](double fps, const std::string& prefix) -> bool {
    const int frames = std::max(1, static_cast<int>(std::lround(fc.clip.duration * fps)));
    const double dt = fc.clip.duration / frames;
    std::vector<Affine3d> hips(frames);
    for (int k = 0; k < frames; ++k) hips[k] = hips_of(fc, k * dt);
    const int n = fc.desc.size();
    ChainDriver drv(fc.desc, p);
    solver::ChainState& st = drv.st;
    drv.reset(hips[0]);
    std::vector<Quaterniond> rot(static_cast<size_t>(n));
    auto in_hips = [&](const Affine3d& h) {
      const Quaterniond hf = solver::hips_frame_world(fc.desc, h);
      const Vector3d root = solver::root_head_world(fc.desc, h);
      std::vector<Vector3d> v;
      for (const auto& q : st.points) v.push_back(hf.conjugate() * (q - root));
      for (const auto& q : st.vel) v.push_back(hf.conjugate() * q);  // m/s (x 1 s)
      return v;
    };
    std::vector<Vector3d> start, prev_start;
    double tip_range = 0;
    std::vector<double> errors;
    for (int l = 0; l <= loops; ++l) {
      prev_start = start;
      start = in_hips(hips[0]);
      if (!prev_start.empty()) {
        double e = 0;
        for (size_t i = 0; i < start.size(); ++i) e = std::max(e, (start[i] - prev_start[i]).norm());
        errors.push_back(e / fc.H);
      }
      if (l == loops) break;
      std::vector<Vector3d> tips;
      for (int k = 1; k <= frames; ++k) {
        const Affine3d& h = hips[k % frames];
        drv.step(dt, h, rot);
        if (l == loops - 1) tips.push_back(in_hips(h)[static_cast<size_t>(n)]);
      }
      for (const auto& a : tips)
        for (const auto& b : tips) tip_range = std::max(tip_range, (a - b).norm());
    }
    // Position-only error of the last loop (points only, not velocities).
    double pos_err = 0;
    for (int i = 0; i <= n; ++i) pos_err = std::max(pos_err, (start[static_cast<size_t>(i)] - prev_start[static_cast<size_t>(i)]).norm());
    out.series[prefix + "loop_change_rel_H"] = errors;
    out.metrics[prefix + "height_m"] = fc.H;
    out.metrics[prefix + "tail_bones"] = n;
    out.metrics[prefix + "frames_per_loop"] = frames;
    out.metrics[prefix + "loop_duration_s"] = fc.clip.duration;
    out.metrics[prefix + "max_position_error_rel_H"] = pos_err / fc.H;
    out.metrics[prefix + "max_state_error_rel_H"] = errors.back();
    out.metrics[prefix + "tip_range_m"] = tip_range;
    out.metrics[prefix + "first_loop_change_rel_H"] = errors.front();
    // The offline bake on the same samples converges and closes.
    solver::BakeOptions bo;
    bo.sample_rate = 1.0 / dt;
    bo.model_height = fc.H;
    solver::BakeResult br;
    if (!solver::bake_loop(fc.desc, p, hips, bo, br)) return false;
    out.metrics[prefix + "bake.passes"] = br.passes;
    out.metrics[prefix + "bake.converged"] = br.converged ? 1 : 0;
    out.metrics[prefix + "bake.closure_error_deg"] = br.closure_error_deg;
    return true;
  };
  if (!run_at(param(s, "fps", 60.0), "")) fail_regression(s.name, "solver bake failed");
  const std::vector<double> extra = s.raw.value("extra_fps", std::vector<double>{});
  for (double f : extra) {
    char pre[32];
    std::snprintf(pre, sizeof pre, "fps_%g.", f);
    if (!run_at(f, pre)) fail_regression(s.name, "solver bake failed");
  }
  return Status::Ok();
}

}  // namespace harness::solver_invariants
