// Solver invariant scenarios (issue 6, SPEC §4 and §8): kinds starting with
// "solver_". Each kind drives the spring chain headless (synthetic rigs, or a
// fixture run through detect --chain), writes numeric metrics, and the
// scenario's "expect" list states the invariant; the golden pins the values.
// Historical bugs of SPEC §4 are re-enabled through the test_bug_* switches
// inside the same run and reported as bug_* metrics whose expectations show
// that the detection still fires.
#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "detect/find_appendages.h"
#include "rig/pose.h"
#include "runners.h"
#include "solver/bake.h"
#include "solver/step.h"
#include "solver_params.h"

namespace harness {
namespace {

using rig::Status;
using Eigen::Affine3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;
using nlohmann::json;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

Status bad(const Scenario& s, const std::string& m) {
  return Status::Error(Status::Code::kBadData, s.path + ": " + m);
}

// Scenario parameter from the raw JSON with a default.
template <class T>
T param(const Scenario& s, const char* key, T fallback) {
  return s.raw.contains(key) ? s.raw[key].get<T>() : fallback;
}

// ---------------------------------------------------------------------------
// Synthetic rig: Root > Hips > {Spine, legs, Tail_1..Tail_N (+ Tail_End)}.
// Hips at (0, hips_height, 0) facing +Z (lateral +X), the tail hanging
// backwards and down from (0, hips_height - 0.05, -0.1), `length` metres.
struct SynthRig {
  std::vector<std::string> names;
  std::vector<int> parents;
  std::vector<Eigen::Matrix4d> inverse_bind;

  int add(const std::string& name, int parent, const Affine3d& world) {
    names.push_back(name);
    parents.push_back(parent);
    inverse_bind.push_back(world.matrix().inverse());
    return static_cast<int>(names.size()) - 1;
  }
  solver::ChainRigInput input() const {
    solver::ChainRigInput in;
    in.names = names;
    in.parents = parents;
    in.inverse_bind = inverse_bind;
    return in;
  }
};

struct SynthSpec {
  int bones = 4;
  bool with_end = true;
  double length = 0.8;       // metres
  double hips_height = 1.0;  // metres
  // Each tail bone gets its own bind rotation (bone frames differ from the
  // hips); `end_twist` rotates only the last bone's frame.
  bool twist_bones = false;
  bool end_twist = false;
};

SynthRig make_rig(const SynthSpec& sp) {
  SynthRig r;
  auto at = [](const Vector3d& p, const Quaterniond& q = Quaterniond::Identity()) {
    Affine3d a = Affine3d::Identity();
    a.translate(p);
    a.rotate(q);
    return a;
  };
  const double h = sp.hips_height;
  const int root = r.add("Root", -1, at(Vector3d(0, 0, 0)));
  const int hips = r.add("Hips", root, at(Vector3d(0, h, 0)));
  r.add("Spine", hips, at(Vector3d(0, h + 0.2, 0)));
  const int lt = r.add("LeftUpLeg", hips, at(Vector3d(0.1, h - 0.05, 0)));
  r.add("LeftLeg", lt, at(Vector3d(0.1, h * 0.5, 0)));
  const int rt = r.add("RightUpLeg", hips, at(Vector3d(-0.1, h - 0.05, 0)));
  r.add("RightLeg", rt, at(Vector3d(-0.1, h * 0.5, 0)));
  const Vector3d dir = Vector3d(0, -0.6, -1.0).normalized();
  Vector3d p(0, h - 0.05, -0.1);
  int parent = hips;
  for (int i = 0; i < sp.bones; ++i) {
    Quaterniond q = Quaterniond::Identity();
    if (sp.twist_bones) q = Eigen::AngleAxisd(0.7 * (i + 1), Vector3d(0.3, 1, 0.2).normalized());
    if (sp.end_twist && i == sp.bones - 1) q = Eigen::AngleAxisd(1.1, Vector3d(0.4, 0.2, 1).normalized());
    parent = r.add("Tail_" + std::to_string(i + 1), parent, at(p, q));
    p += dir * (sp.length / sp.bones);
  }
  if (sp.with_end) r.add("Tail_End", parent, at(p));
  return r;
}

Affine3d hips_pose(const Vector3d& pos, double yaw_rad) {
  Affine3d a = Affine3d::Identity();
  a.translate(pos);
  a.rotate(Eigen::AngleAxisd(yaw_rad, Vector3d::UnitY()));
  return a;
}

// SPEC §4 hip swing: `dist` metres sideways in `seg` seconds and back while
// turning `turn` radians, cosine profile, then held. sign = -1 mirrors it.
struct HipSwing {
  double dist = 0.5, seg = 2.0 / 3.0, turn = 0.5 * kPi, height = 1.0, sign = 1.0;
  Affine3d operator()(double t) const {
    double u = 0.0;
    if (t < seg) u = 0.5 * (1.0 - std::cos(kPi * t / seg));
    else if (t < 2 * seg) u = 0.5 * (1.0 + std::cos(kPi * (t - seg) / seg));
    return hips_pose(Vector3d(sign * dist * u, height, 0.0), sign * turn * u);
  }
};

HipSwing swing_from(const Scenario& s) {
  HipSwing m;
  m.dist = param(s, "swing_m", 0.5);
  m.seg = param(s, "swing_time_s", 2.0 / 3.0);
  m.turn = param(s, "turn_deg", 90.0) * kDeg;
  m.height = param(s, "hips_height_m", 1.0);
  return m;
}

SynthSpec synth_from(const Scenario& s, int bones) {
  SynthSpec sp;
  sp.bones = bones;
  sp.length = param(s, "tail_length_m", 0.8);
  sp.hips_height = param(s, "hips_height_m", 1.0);
  return sp;
}

// What driving a chain with a hips motion produced.
struct Run {
  std::vector<double> angle_range_deg;  // per bone: max angle from its start local rotation
  double max_length_error = 0.0;        // relative, particles and displayed points
  int nan_count = 0;                    // non-finite rotations / positions (count of values)
  double tip_excursion = 0.0;           // max |tip - tip(0)| in the hips frame, metres
  double max_radial_velocity = 0.0;     // m/s along any link after a step (rope rule)
  std::vector<Vector3d> tip_world;      // per frame (frame 0 = after reset), metres
  std::vector<std::vector<Vector3d>> points;        // per frame, N+1 world points
  std::vector<std::vector<Vector3d>> points_hips;   // per frame, N+1 points in the hips frame
  std::vector<double> min_particle_y;   // per frame, metres
  std::vector<std::vector<Quaterniond>> local;  // per frame, output local rotations
  int teleports = 0;
};

using Motion = std::function<Affine3d(double)>;

Run run_motion(const solver::ChainDesc& desc, const solver::ChainParams& params, const Motion& motion,
               double fps, double duration) {
  solver::ChainState st;
  solver::init_state(desc, st);
  solver::reset(desc, params, st, motion(0.0));
  const size_t n = desc.links.size();
  std::vector<Quaterniond> rot(n);
  solver::step(desc, params, st, 0.0, motion(0.0), rot);
  const std::vector<Quaterniond> start(rot);
  Run r;
  r.angle_range_deg.assign(n, 0.0);
  auto record = [&](const Affine3d& hips) {
    const Quaterniond hf = solver::hips_frame_world(desc, hips);
    const Vector3d root = solver::root_head_world(desc, hips);
    std::vector<Vector3d> local(n + 1);
    double miny = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i <= n; ++i) {
      local[i] = hf.conjugate() * (st.points[i] - root);
      if (i > 0) miny = std::min(miny, st.points[i].y());
    }
    r.points.push_back(st.points);
    r.local.push_back(rot);
    r.points_hips.push_back(local);
    r.tip_world.push_back(st.points[n]);
    r.min_particle_y.push_back(miny);
  };
  record(motion(0.0));
  const int frames = static_cast<int>(std::lround(duration * fps));
  for (int f = 1; f <= frames; ++f) {
    const Affine3d hips = motion(f / fps);
    solver::step(desc, params, st, 1.0 / fps, hips, rot);
    const Vector3d root = solver::root_head_world(desc, hips);
    for (size_t i = 0; i < n; ++i) {
      if (!rot[i].coeffs().allFinite()) ++r.nan_count;
      if (!st.pos[i].allFinite() || !st.vel[i].allFinite() || !st.points[i + 1].allFinite()) {
        ++r.nan_count;
        continue;
      }
      r.angle_range_deg[i] = std::max(r.angle_range_deg[i], rot[i].angularDistance(start[i]) / kDeg);
      const Vector3d head = i == 0 ? root : st.pos[i - 1];
      const double len = (st.pos[i] - head).norm();
      r.max_length_error = std::max(r.max_length_error, std::abs(len / desc.links[i].length - 1.0));
      const double dl = (st.points[i + 1] - st.points[i]).norm();
      r.max_length_error = std::max(r.max_length_error, std::abs(dl / desc.links[i].length - 1.0));
      if (len > 0) r.max_radial_velocity = std::max(r.max_radial_velocity, std::abs(st.vel[i].dot((st.pos[i] - head) / len)));
    }
    record(hips);
    if (r.points_hips.back()[n].allFinite())
      r.tip_excursion = std::max(r.tip_excursion, (r.points_hips.back()[n] - r.points_hips.front()[n]).norm());
  }
  r.teleports = st.teleports;
  return r;
}

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

Status base_params(const Scenario& s, solver::ChainParams& p) {
  std::string err;
  if (!apply_solver_overrides(s.solver, p, err)) return bad(s, err);
  return Status::Ok();
}

Status build(const Scenario& s, const SynthRig& rig, const solver::ChainParams& p, solver::ChainDesc& desc) {
  if (auto st = solver::build_chain(rig.input(), p, desc); !st.ok()) return bad(s, "solver setup: " + st.message);
  return Status::Ok();
}

std::vector<int> chains_from(const Scenario& s, std::vector<int> fallback) {
  return s.raw.contains("chains") ? s.raw["chains"].get<std::vector<int>>() : fallback;
}

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
  };
  std::vector<Variant> variants = {{"", base}};
  // Extra variants: name -> solver overrides on top of "solver" (the
  // historical bugs by default); metrics prefixed "<name>.".
  json extra = s.raw.value("variants_solver", json{{"bug_rope_velocity_feedback", {{"test_bug_rope_velocity_feedback", true}}},
                                                   {"bug_fixed_fraction_follow", {{"test_bug_fixed_fraction_follow", true}}}});
  for (const auto& [name, overrides] : extra.items()) {
    Variant v{name + ".", base};
    std::string err;
    if (!apply_solver_overrides(overrides, v.p, err)) return bad(s, name + ": " + err);
    variants.push_back(v);
  }
  for (const Variant& v : variants) {
    double worst_ratio = 0, worst_len = 0, worst_radial = 0, min_excursion = 1e30;
    int nans = 0, failed = 0;
    for (int n : chains) {
      const SynthSpec sp = synth_from(s, n);
      solver::ChainDesc desc;
      if (Status st = build(s, make_rig(sp), v.p, desc); !st.ok()) return st;
      const Run r = run_motion(desc, v.p, motion, fps, duration);
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

double fps_spread(const solver::ChainDesc& desc, const solver::ChainParams& p, const Motion& motion,
                  const std::vector<double>& rates, double duration) {
  std::vector<Run> runs;
  for (double fps : rates) runs.push_back(run_motion(desc, p, motion, fps, duration));
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

Status fps_independence(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base;
  if (Status st = base_params(s, base); !st.ok()) return st;
  const std::vector<int> chains = chains_from(s, {1, 4, 8});
  const std::vector<double> rates =
      s.raw.contains("fps") ? s.raw["fps"].get<std::vector<double>>() : std::vector<double>{30, 60, 144};
  const double duration = param(s, "duration_s", 3.0);
  const double H = param(s, "model_height_m", 1.9);
  const HipSwing motion = swing_from(s);
  solver::ChainParams bug = base;
  bug.test_bug_fixed_fraction_follow = true;
  double worst = 0, worst_bug = 0;
  for (int n : chains) {
    const SynthSpec sp = synth_from(s, n);
    const SynthRig rig = make_rig(sp);
    solver::ChainDesc desc;
    if (Status st = build(s, rig, base, desc); !st.ok()) return st;
    const double e = fps_spread(desc, base, motion, rates, duration) / H;
    solver::ChainDesc bdesc;
    if (Status st = build(s, rig, bug, bdesc); !st.ok()) return st;
    const double eb = fps_spread(bdesc, bug, motion, rates, duration) / H;
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
  const Motion motion = [&](double t) {
    return t < jump_t - 1e-9 ? hips_pose(Vector3d(0, h, 0), 0.0) : hips_pose(Vector3d(jump, h, 0), turn);
  };
  // Extra variants (name -> solver overrides), e.g. teleport handling off,
  // to show the checks catch an unhandled jump; metrics prefixed "<name>.".
  std::vector<std::pair<std::string, solver::ChainParams>> variants = {{"", p}};
  const json extra = s.raw.contains("variants_solver") ? s.raw["variants_solver"] : json::object();
  for (const auto& [name, overrides] : extra.items()) {
    solver::ChainParams pv = p;
    std::string err;
    if (!apply_solver_overrides(overrides, pv, err)) return bad(s, name + ": " + err);
    variants.emplace_back(name + ".", pv);
  }
  for (const auto& [prefix, pv] : variants) {
    double worst_after = 0, worst_len = 0;
    int nans = 0, min_teleports = 1 << 30;
    for (int n : chains) {
      const SynthSpec sp = synth_from(s, n);
      solver::ChainDesc desc;
      if (Status st = build(s, make_rig(sp), pv, desc); !st.ok()) return st;
      const Run r = run_motion(desc, pv, motion, fps, duration);
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
    }
    out.metrics[prefix + "nan_count"] = nans;
    out.metrics[prefix + "max_length_error_rel"] = worst_len;
    out.metrics[prefix + "pose_error_after_settle_rel_H"] = worst_after;
    out.metrics[prefix + "min_teleports"] = min_teleports;
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// Fixture characters: the chain comes from detect --chain (run_edge_stretch
// does the same), hips from the clip.
struct FixtureChain {
  rig::Character ch;      // chained character
  rig::Clip clip;
  solver::ChainDesc desc;
  double H = 1.0;         // model height, metres (bind mesh Y extent)
  double mpu = 1.0;
};


Status load_fixture_chain(const Scenario& s, const std::string& clip_name, const solver::ChainParams& base,
                          FixtureChain& out, solver::ChainParams& p) {
  rig::Character original;
  if (Status st = load_scenario_character(s, original); !st.ok()) return st;
  detect::Params dp;
  detect::FixResult chained;
  if (Status st = detect::fix(original, detect::Mode::kChain, dp, chained); !st.ok()) return st;
  if (chained.chains < 1) return bad(s, "detect found no tail chain");
  out.ch = std::move(chained.character);
  auto it = std::find_if(out.ch.clips.begin(), out.ch.clips.end(), [&](const rig::Clip& c) { return c.name == clip_name; });
  if (it == out.ch.clips.end()) return bad(s, "character has no clip '" + clip_name + "'");
  out.clip = *it;
  out.mpu = out.ch.meters_per_unit;
  double lo = 1e30, hi = -1e30;
  for (const auto& v : out.ch.mesh.positions) lo = std::min(lo, v.y()), hi = std::max(hi, v.y());
  out.H = (hi - lo) * out.mpu;
  p = base;
  p.meters_per_unit = out.mpu;
  const rig::Skeleton& sk = out.ch.skeleton;
  solver::ChainRigInput in;
  in.names = sk.names;
  in.parents = sk.parents;
  in.inverse_bind = sk.inverse_bind;
  in.hips = rig::hips_joint(sk);
  if (auto st = solver::build_chain(in, p, out.desc); !st.ok()) return bad(s, "solver setup: " + st.message);
  return Status::Ok();
}

Affine3d hips_of(const FixtureChain& fc, double t) {
  const auto w = rig::pose_at(fc.ch.skeleton, fc.clip, t);
  Affine3d a;
  a.matrix() = w[fc.desc.hips];
  return a;
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
    solver::ChainState st;
    solver::init_state(fc.desc, st);
    solver::reset(fc.desc, p, st, hips[0]);
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
        solver::step(fc.desc, p, st, dt, h, rot);
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
  if (!run_at(param(s, "fps", 60.0), "")) return bad(s, "solver bake failed");
  const std::vector<double> extra = s.raw.value("extra_fps", std::vector<double>{});
  for (double f : extra) {
    char pre[32];
    std::snprintf(pre, sizeof pre, "fps_%g.", f);
    if (!run_at(f, pre)) return bad(s, "solver bake failed");
  }
  return Status::Ok();
}

// contact_never_moves_body: posing with and without the solver gives the
// same world matrix, bit for bit, for every joint outside the tail.
Status contact_never_moves_body(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base;
  if (Status st = base_params(s, base); !st.ok()) return st;
  const std::vector<std::string> clips =
      s.raw.contains("clips") ? s.raw["clips"].get<std::vector<std::string>>() : std::vector<std::string>{s.clip};
  const double fps = param(s, "fps", 30.0);
  const double floor_lift = param(s, "floor_raise_m", 0.0);
  for (const std::string& clip : clips) {
    solver::ChainParams p;
    FixtureChain fc;
    if (Status st = load_fixture_chain(s, clip, base, fc, p); !st.ok()) return st;
    p.floor_height += floor_lift;
    const rig::Skeleton& sk = fc.ch.skeleton;
    std::vector<char> tail(static_cast<size_t>(sk.size()), 0);
    for (const auto& l : fc.desc.links) tail[static_cast<size_t>(l.joint)] = 1;
    // Every descendant of a tail bone (Tail_End, helpers) belongs to the tail.
    for (int j = 0; j < sk.size(); ++j)
      if (sk.parents[j] >= 0 && tail[static_cast<size_t>(sk.parents[j])]) tail[static_cast<size_t>(j)] = 1;
    const int frames = std::max(1, static_cast<int>(std::lround(fc.clip.duration * fps)));
    const double dt = fc.clip.duration / frames;
    solver::ChainState st;
    solver::init_state(fc.desc, st);
    std::vector<Quaterniond> rot(static_cast<size_t>(fc.desc.size()));
    long mismatched = 0, compared = 0;
    int contact_frames = 0;
    double tail_rot = 0;
    for (int k = 0; k <= frames; ++k) {
      const double t = k * dt;
      std::vector<rig::Transform> locals = sk.stored_local;
      rig::apply_clip(fc.clip, t, locals);
      const auto without = rig::local_to_world(sk, locals);
      Affine3d h;
      h.matrix() = without[fc.desc.hips];
      if (k == 0) solver::reset(fc.desc, p, st, h);
      solver::step(fc.desc, p, st, k == 0 ? 0.0 : dt, h, rot);
      for (size_t i = 0; i < rot.size(); ++i) {
        auto& tr = locals[static_cast<size_t>(fc.desc.links[i].joint)];
        tail_rot = std::max(tail_rot, tr.rotation.angularDistance(rot[i]) / kDeg);
        tr.rotation = rot[i];
      }
      const auto with = rig::local_to_world(sk, locals);
      for (int j = 0; j < sk.size(); ++j) {
        if (tail[static_cast<size_t>(j)]) continue;
        ++compared;
        if (std::memcmp(without[j].data(), with[j].data(), sizeof(double) * 16) != 0) ++mismatched;
      }
      if (std::any_of(st.contact.begin(), st.contact.end(), [](std::uint8_t c) { return c != 0; })) ++contact_frames;
    }
    int non_tail = 0;
    for (char c : tail) non_tail += c ? 0 : 1;
    const std::string pre = clip + ".";
    out.metrics[pre + "frames"] = frames + 1;
    out.metrics[pre + "non_tail_joints"] = non_tail;
    out.metrics[pre + "compared_matrices"] = compared;
    out.metrics[pre + "mismatched_matrices"] = mismatched;
    out.metrics[pre + "contact_frames"] = contact_frames;
    out.metrics[pre + "max_tail_rotation_deg"] = tail_rot;
  }
  return Status::Ok();
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

// ---------------------------------------------------------------------------
// ground: fixture clips with the tail reaching the floor, at the default and
// a raised floor; every particle (internal and displayed) at or above F + rho.
struct GroundStats {
  double min_margin = 1e30;            // min (y - (F + rho)) of the displayed points, metres
  double min_margin_internal = 1e30;   // same for the internal particles
  double min_head_margin = 1e30;       // min (y - (F + rho)) of every link head (the root included)
  double max_len_err = 0;
  double max_display_offset = 0;       // max |displayed point - internal particle|, metres
  int nan = 0, contact_frames = 0;
};

void ground_frame(const solver::ChainDesc& desc, const solver::ChainParams& p, const solver::ChainState& st,
                  const Vector3d& root, GroundStats& g) {
  const double F = p.floor_height + p.floor_clearance;
  bool contact = false;
  for (int i = 0; i < desc.size(); ++i) {
    const size_t u = static_cast<size_t>(i);
    if (!st.pos[u].allFinite() || !st.points[u + 1].allFinite()) {
      ++g.nan;
      continue;
    }
    g.min_margin = std::min(g.min_margin, st.points[u + 1].y() - F);
    g.min_margin_internal = std::min(g.min_margin_internal, st.pos[u].y() - F);
    g.max_display_offset = std::max(g.max_display_offset, (st.points[u + 1] - st.pos[u]).norm());
    g.min_head_margin = std::min(g.min_head_margin, (i == 0 ? root : st.points[u]).y() - F);
    const double dl = (st.points[u + 1] - (i == 0 ? root : st.points[u])).norm();
    g.max_len_err = std::max(g.max_len_err, std::abs(dl / desc.links[u].length - 1.0));
    contact = contact || st.contact[u] != 0;
  }
  if (contact) ++g.contact_frames;
}

Status ground(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base;
  if (Status st = base_params(s, base); !st.ok()) return st;
  const std::vector<std::string> clips = s.raw.value("clips", std::vector<std::string>{"crouch_backward", "crawl_idle"});
  const std::vector<double> floors = s.raw.value("floors_m", std::vector<double>{0.0, 0.2});
  const double fps = param(s, "fps", 60.0);
  const int loops = param(s, "loops", 2);
  double worst_margin = 1e30, worst_len = 0;
  int nans = 0;
  for (const std::string& clip : clips) {
    solver::ChainParams p0;
    FixtureChain fc;
    if (Status st = load_fixture_chain(s, clip, base, fc, p0); !st.ok()) return st;
    for (double floor : floors) {
      solver::ChainParams p = p0;
      p.floor_height = floor;
      const int frames = std::max(1, static_cast<int>(std::lround(fc.clip.duration * fps)));
      const double dt = fc.clip.duration / frames;
      solver::ChainState st;
      solver::init_state(fc.desc, st);
      std::vector<Quaterniond> rot(static_cast<size_t>(fc.desc.size()));
      GroundStats g;
      double min_hips = 1e30;
      for (int k = 0; k <= frames * loops; ++k) {
        const Affine3d h = hips_of(fc, (k % frames) * dt);
        if (k == 0) solver::reset(fc.desc, p, st, h);
        solver::step(fc.desc, p, st, k == 0 ? 0.0 : dt, h, rot);
        ground_frame(fc.desc, p, st, solver::root_head_world(fc.desc, h), g);
        min_hips = std::min(min_hips, h.translation().y() * fc.mpu);
      }
      char fl[32];
      std::snprintf(fl, sizeof fl, "floor_%+.2f", floor);
      const std::string pre = clip + "." + fl + ".";
      out.metrics[pre + "min_margin_m"] = g.min_margin;
      out.metrics[pre + "min_margin_internal_m"] = g.min_margin_internal;
      out.metrics[pre + "min_head_margin_m"] = g.min_head_margin;
      out.metrics[pre + "max_display_offset_m"] = g.max_display_offset;
      out.metrics[pre + "max_length_error_rel"] = g.max_len_err;
      out.metrics[pre + "contact_frames"] = g.contact_frames;
      out.metrics[pre + "frames"] = frames * loops + 1;
      out.metrics[pre + "nan_count"] = g.nan;
      out.metrics[clip + ".min_hips_height_m"] = min_hips;
      worst_margin = std::min(worst_margin, g.min_margin);
      worst_len = std::max(worst_len, g.max_len_err);
      nans += g.nan;
    }
  }
  out.metrics["min_margin_m"] = worst_margin;
  out.metrics["max_length_error_rel"] = worst_len;
  out.metrics["nan_count"] = nans;

  // Settle and lift-off: synthetic tail, hips lowered until the tail lies on
  // the floor, held, raised again; contact must appear, then release.
  {
    solver::ChainParams p = base;
    SynthSpec sp = synth_from(s, param(s, "settle_bones", 8));
    const double h0 = sp.hips_height, low = param(s, "settle_low_hips_m", 0.3);
    const double move = param(s, "settle_move_s", 1.0), hold = param(s, "settle_hold_s", 2.0);
    solver::ChainDesc desc;
    if (Status st = build(s, make_rig(sp), p, desc); !st.ok()) return st;
    auto hips_y = [&](double t) {
      auto ease = [](double u) { return 0.5 * (1.0 - std::cos(kPi * std::clamp(u, 0.0, 1.0))); };
      if (t < move) return h0 + (low - h0) * ease(t / move);
      if (t < move + hold) return low;
      return low + (h0 - low) * ease((t - move - hold) / move);
    };
    const double total = 2 * move + 2 * hold, rise_start = move + hold, rise_end = 2 * move + hold;
    solver::ChainState st;
    solver::init_state(desc, st);
    std::vector<Quaterniond> rot(static_cast<size_t>(desc.size()));
    GroundStats g;
    double max_speed = 0, max_accel = 0, release_t = -1, last_contact_t = -1, held_speed = 0;
    int max_contacts_low = 0;
    std::vector<double> speeds;
    std::vector<int> contact_counts;
    std::vector<Vector3d> prev, prev2;
    const int frames = static_cast<int>(std::lround(total * fps));
    for (int k = 0; k <= frames; ++k) {
      const double t = k / fps;
      const Affine3d h = hips_pose(Vector3d(0, hips_y(t), 0), 0.0);
      if (k == 0) solver::reset(desc, p, st, h);
      solver::step(desc, p, st, k == 0 ? 0.0 : 1.0 / fps, h, rot);
      ground_frame(desc, p, st, solver::root_head_world(desc, h), g);
      int contacts = 0;
      for (auto c : st.contact) contacts += c ? 1 : 0;
      if (t >= move && t < rise_start) max_contacts_low = std::max(max_contacts_low, contacts);
      if (contacts > 0) last_contact_t = t;
      if (contacts == 0 && t >= rise_start && release_t < 0) release_t = t - rise_start;
      std::vector<Vector3d> cur(st.points.begin() + 1, st.points.end());
      if (!prev.empty())
        for (size_t i = 0; i < cur.size(); ++i) {
          max_speed = std::max(max_speed, (cur[i] - prev[i]).norm() * fps);
          if (t >= move + 0.5 * hold && t < rise_start) held_speed = std::max(held_speed, (cur[i] - prev[i]).norm() * fps);
          if (!prev2.empty()) max_accel = std::max(max_accel, (cur[i] - 2 * prev[i] + prev2[i]).norm() * fps * fps);
        }
      if (!prev.empty()) {
        double sp_max = 0;
        for (size_t i = 0; i < cur.size(); ++i) sp_max = std::max(sp_max, (cur[i] - prev[i]).norm() * fps);
        speeds.push_back(sp_max);
        contact_counts.push_back(contacts);
      }
      prev2 = prev;
      prev = cur;
    }
    out.metrics["settle.min_margin_m"] = g.min_margin;
    out.metrics["settle.max_length_error_rel"] = g.max_len_err;
    out.metrics["settle.nan_count"] = g.nan;
    out.metrics["settle.max_contacts_while_low"] = max_contacts_low;
    out.metrics["settle.release_after_rise_s"] = release_t;
    out.metrics["settle.last_contact_after_rise_end_s"] = last_contact_t < 0 ? -1.0 : last_contact_t - rise_end;
    out.metrics["settle.max_particle_speed_mps"] = max_speed;
    out.metrics["settle.max_particle_accel_mps2"] = max_accel;
    out.metrics["settle.max_speed_late_hold_mps"] = held_speed;
    out.series["settle.max_particle_speed_mps"] = speeds;
    out.series["settle.contacts"] = contact_counts;
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// bind_pose_recovery: a fixture whose stored pose differs from bind (the
// mouse_chained 28 deg on the last joint) against the same rig with the
// stored pose set to bind: identical tail motion and posed tail joints.
Status bind_pose_recovery(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams base, p;
  if (Status st = base_params(s, base); !st.ok()) return st;
  rig::Character stored;
  if (Status st = load_scenario_character(s, stored); !st.ok()) return st;
  auto clip_it = std::find_if(stored.clips.begin(), stored.clips.end(), [&](const rig::Clip& c) { return c.name == s.clip; });
  if (clip_it == stored.clips.end()) return bad(s, "character has no clip '" + s.clip + "'");
  const rig::Clip clip = *clip_it;
  rig::Character clean = stored;
  clean.skeleton.stored_local = clean.skeleton.neutral_local;
  p = base;
  p.meters_per_unit = stored.meters_per_unit;
  const double fps = param(s, "fps", 30.0);
  const int loops = param(s, "loops", 2);
  struct Side {
    const rig::Character* ch;
    solver::ChainDesc desc;
    std::vector<std::vector<Eigen::Matrix4d>> tail_world;  // per frame, tail joints
    std::vector<Quaterniond> rest_rot;
  };
  Side sides[2] = {{&stored, {}, {}, {}}, {&clean, {}, {}, {}}};
  for (Side& sd : sides) {
    const rig::Skeleton& sk = sd.ch->skeleton;
    solver::ChainRigInput in;
    in.names = sk.names;
    in.parents = sk.parents;
    in.inverse_bind = sk.inverse_bind;
    in.hips = rig::hips_joint(sk);
    if (auto st = solver::build_chain(in, p, sd.desc); !st.ok()) return bad(s, "solver setup: " + st.message);
    const int frames = std::max(1, static_cast<int>(std::lround(clip.duration * fps)));
    const double dt = clip.duration / frames;
    solver::ChainState st;
    solver::init_state(sd.desc, st);
    std::vector<Quaterniond> rot(static_cast<size_t>(sd.desc.size()));
    for (int k = 0; k <= frames * loops; ++k) {
      std::vector<rig::Transform> locals = sk.stored_local;
      rig::apply_clip(clip, (k % frames) * dt, locals);
      const auto w0 = rig::local_to_world(sk, locals);
      Affine3d h;
      h.matrix() = w0[sd.desc.hips];
      if (k == 0) {
        solver::reset(sd.desc, p, st, h);
        solver::step(sd.desc, p, st, 0.0, h, rot);
        sd.rest_rot = rot;
      } else {
        solver::step(sd.desc, p, st, dt, h, rot);
      }
      for (size_t i = 0; i < rot.size(); ++i) locals[static_cast<size_t>(sd.desc.links[i].joint)].rotation = rot[i];
      const auto w = rig::local_to_world(sk, locals);
      std::vector<Eigen::Matrix4d> tw;
      for (const auto& l : sd.desc.links) tw.push_back(w[l.joint]);
      sd.tail_world.push_back(tw);
    }
  }
  const rig::Skeleton& sk = stored.skeleton;
  const int last = sides[0].desc.links.back().joint;
  double stored_deg = 0;
  for (const auto& l : sides[0].desc.links)
    stored_deg = std::max(stored_deg, sk.stored_local[l.joint].rotation.angularDistance(sk.neutral_local[l.joint].rotation) / kDeg);
  double pos_diff = 0, rot_diff = 0, rest_diff = 0;
  for (size_t f = 0; f < sides[0].tail_world.size(); ++f)
    for (size_t i = 0; i < sides[0].tail_world[f].size(); ++i) {
      const Eigen::Matrix4d& a = sides[0].tail_world[f][i];
      const Eigen::Matrix4d& b = sides[1].tail_world[f][i];
      pos_diff = std::max(pos_diff, (a.block<3, 1>(0, 3) - b.block<3, 1>(0, 3)).norm() * stored.meters_per_unit);
      rot_diff = std::max(rot_diff, (a.block<3, 3>(0, 0) - b.block<3, 3>(0, 0)).cwiseAbs().maxCoeff());
    }
  for (size_t i = 0; i < sides[0].rest_rot.size(); ++i)
    rest_diff = std::max(rest_diff, sides[0].rest_rot[i].angularDistance(sides[1].rest_rot[i]) / kDeg);
  // The settled rest of the last joint against its neutral (bind) rotation:
  // the carry arc moves it, the stored 28 deg must not be baked in.
  const size_t li = sides[0].desc.links.size() - 1;
  out.metrics["stored_pose_max_deg"] = stored_deg;
  out.metrics["last_joint.stored_deg"] =
      sk.stored_local[last].rotation.angularDistance(sk.neutral_local[last].rotation) / kDeg;
  out.metrics["last_joint.rest_vs_stored_deg"] = sides[0].rest_rot[li].angularDistance(sk.stored_local[last].rotation) / kDeg;
  out.metrics["last_joint.rest_vs_neutral_deg"] = sides[0].rest_rot[li].angularDistance(sk.neutral_local[last].rotation) / kDeg;
  out.metrics["rest_rotation_diff_deg"] = rest_diff;
  out.metrics["max_tail_position_diff_m"] = pos_diff;
  out.metrics["max_tail_rotation_diff"] = rot_diff;
  out.metrics["tail_bones"] = sides[0].desc.size();
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// rotated_end_bone: no Tail_End, the last bone's bind frame rotated away from
// its parent's: the synthesised end continues the incoming tangent, and the
// motion equals the same chain with an unrotated last bone.
Status rotated_end_bone(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams p;
  if (Status st = base_params(s, p); !st.ok()) return st;
  const std::vector<int> chains = chains_from(s, {2, 4, 8});
  const double fps = param(s, "fps", 60.0), duration = param(s, "duration_s", 3.0);
  const double H = param(s, "model_height_m", 1.9);
  const HipSwing motion = swing_from(s);
  double worst_tan = 0, worst_len = 0, worst_motion = 0, min_rot = 1e30;
  for (int n : chains) {
    SynthSpec sp = synth_from(s, n);
    sp.with_end = false;
    SynthSpec plain = sp;
    sp.end_twist = true;
    const SynthRig rig = make_rig(sp), rig_plain = make_rig(plain);
    solver::ChainDesc desc, desc_plain;
    if (Status st = build(s, rig, p, desc); !st.ok()) return st;
    if (Status st = build(s, rig_plain, p, desc_plain); !st.ok()) return st;
    // Bind-space check of the synthesised end segment.
    const int last = desc.links.back().joint, prev = desc.links[desc.links.size() - 2].joint;
    const Eigen::Matrix4d wl = rig.inverse_bind[static_cast<size_t>(last)].inverse();
    const Eigen::Matrix4d wp = rig.inverse_bind[static_cast<size_t>(prev)].inverse();
    const Vector3d incoming = (wl.block<3, 1>(0, 3) - wp.block<3, 1>(0, 3));
    const Vector3d end_dir = (wl.block<3, 3>(0, 0) * desc.links.back().bind_dir_local).normalized();
    const double tan_err = std::acos(std::clamp(end_dir.dot(incoming.normalized()), -1.0, 1.0)) / kDeg;
    const double len_err = std::abs(desc.links.back().length / incoming.norm() - 1.0);
    const double frame_rot = Quaterniond(wl.block<3, 3>(0, 0)).angularDistance(Quaterniond(wp.block<3, 3>(0, 0))) / kDeg;
    const Run a = run_motion(desc, p, motion, fps, duration);
    const Run b = run_motion(desc_plain, p, motion, fps, duration);
    double diff = 0;
    for (size_t f = 0; f < a.points.size(); ++f)
      for (size_t i = 0; i < a.points[f].size(); ++i) {
        const double e = (a.points[f][i] - b.points[f][i]).norm();
        diff = std::isfinite(e) ? std::max(diff, e) : std::numeric_limits<double>::infinity();
      }
    const std::string pre = "bones_" + std::to_string(n) + ".";
    out.metrics[pre + "end_frame_rotation_deg"] = frame_rot;
    out.metrics[pre + "end_tangent_error_deg"] = tan_err;
    out.metrics[pre + "end_length_error_rel"] = len_err;
    out.metrics[pre + "motion_diff_rel_H"] = diff / H;
    out.metrics[pre + "tip_excursion_rel_H"] = a.tip_excursion / H;
    out.metrics[pre + "nan_count"] = a.nan_count;
    worst_tan = std::max(worst_tan, tan_err);
    worst_len = std::max(worst_len, len_err);
    worst_motion = std::max(worst_motion, diff / H);
    min_rot = std::min(min_rot, frame_rot);
  }
  out.metrics["max_end_tangent_error_deg"] = worst_tan;
  out.metrics["max_end_length_error_rel"] = worst_len;
  out.metrics["max_motion_diff_rel_H"] = worst_motion;
  out.metrics["min_end_frame_rotation_deg"] = min_rot;
  return Status::Ok();
}

}  // namespace

rig::Status run_solver_invariant(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  try {
    if (s.kind == "solver_fast_hip_swing") return fast_hip_swing(s, out);
    if (s.kind == "solver_lr_symmetry") return lr_symmetry(s, out);
    if (s.kind == "solver_fps_independence") return fps_independence(s, out);
    if (s.kind == "solver_teleport") return teleport(s, out);
    if (s.kind == "solver_loop_closure") return loop_closure(s, out);
    if (s.kind == "solver_contact_never_moves_body") return contact_never_moves_body(s, out);
    if (s.kind == "solver_bend_smoothness") return bend_smoothness(s, out);
    if (s.kind == "solver_ground") return ground(s, out);
    if (s.kind == "solver_bind_pose_recovery") return bind_pose_recovery(s, out);
    if (s.kind == "solver_rotated_end_bone") return rotated_end_bone(s, out);
  } catch (const std::exception& e) {
    return bad(s, std::string("scenario parameters: ") + e.what());
  }
  return Status::Error(Status::Code::kBadData, s.path + ": unknown scenario kind '" + s.kind + "'");
}

}  // namespace harness
