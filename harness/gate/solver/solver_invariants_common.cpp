// Shared machinery of the solver invariant scenarios (see
// solver_invariants_common.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "detect/find_appendages.h"
#include "rig/anatomy/roles.h"
#include "rig/model/pose.h"
#include "harness/gate/solver/solver_invariants_common.h"
#include "solver/batch.h"
#include "pipeline/solver_params.h"

namespace harness::solver_invariants {

Status bad(const Scenario& s, const std::string& m) {
  return Status::Error(Status::Code::kBadData, s.path + ": " + m);
}


SynthRig make_rig(const SynthSpec& sp) {
  SynthRig r;
  auto at = [&sp](const Vector3d& p, const Quaterniond& q = Quaterniond::Identity()) {
    Affine3d a = Affine3d::Identity();
    a.translate(p * sp.unit_scale);
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

namespace {
thread_local bool t_use_batch = false;
}

BatchScope::BatchScope(bool on) : previous_(t_use_batch) { t_use_batch = on; }
BatchScope::~BatchScope() { t_use_batch = previous_; }

struct ChainDriver::BatchState {
  solver::Batch batch;
  std::vector<Eigen::Quaternionf> out;
  std::vector<Eigen::Vector3f> points;
  BatchState(const solver::ChainDesc& d, const solver::ChainParams& p)
      : batch(d, p, 1), out(static_cast<size_t>(d.size())), points(static_cast<size_t>(d.size()) + 1) {}
};

ChainDriver::ChainDriver(const solver::ChainDesc& desc, const solver::ChainParams& p, const SeededBugs& bugs)
    : desc_(desc), params_(p), bugs_(bugs) {
  solver::init_state(desc, st);
  const bool step_bugs = bugs.fixed_fraction_follow || bugs.rope_velocity_feedback;
  if (t_use_batch && !step_bugs) batch_ = new BatchState(desc, p);
}

ChainDriver::~ChainDriver() { delete batch_; }

void ChainDriver::reset(const Affine3d& hips) {
  if (!batch_) return solver::testing::reset(desc_, params_, bugs_, st, hips);
  batch_->batch.reset(0, hips);
  batch_->batch.step(0.0, std::span<const Affine3d>(&hips, 1), batch_->out);
  mirror();
}

void ChainDriver::step(double dt, const Affine3d& hips, std::span<Quaterniond> rot) {
  if (!batch_) return solver::testing::step(desc_, params_, bugs_, st, dt, hips, rot);
  batch_->batch.step(dt, std::span<const Affine3d>(&hips, 1), batch_->out);
  for (size_t i = 0; i < rot.size() && i < batch_->out.size(); ++i) rot[i] = batch_->out[i].cast<double>();
  mirror();
}

void ChainDriver::mirror() {
  const solver::Batch& b = batch_->batch;
  b.points(0, batch_->points);
  for (int i = 0; i < b.links(); ++i) {
    const size_t u = static_cast<size_t>(i);
    st.pos[u] = b.position(0, i).cast<double>();
    st.vel[u] = b.velocity(0, i).cast<double>();
    st.contact[u] = b.contact(0, i) ? 1 : 0;
    st.out_local[u] = batch_->out[u].cast<double>();
  }
  for (size_t u = 0; u < batch_->points.size(); ++u) st.points[u] = batch_->points[u].cast<double>();
  st.teleports = b.teleports(0);
  st.rejected_hips = b.rejected_hips(0);
  st.last_substeps = b.last_substeps();
  st.initialized = true;
}

Run run_motion(const solver::ChainDesc& desc, const solver::ChainParams& params, const Motion& motion,
               double fps, double duration, const SeededBugs& bugs) {
  ChainDriver drv(desc, params, bugs);
  solver::ChainState& st = drv.st;
  drv.reset(motion(0.0));
  const size_t n = desc.links.size();
  std::vector<Quaterniond> rot(n);
  drv.step(0.0, motion(0.0), rot);
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
    drv.step(1.0 / fps, hips, rot);
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

Status base_params(const Scenario& s, solver::ChainParams& p) {
  std::string err;
  if (!pipeline::apply_solver_overrides(s.solver, p, err)) return bad(s, err);
  return Status::Ok();
}

Status variant_params(const Scenario& s, const std::string& name, const nlohmann::json& overrides,
                      solver::ChainParams& p, SeededBugs& bugs) {
  nlohmann::json spring = nlohmann::json::object();
  for (const auto& [k, v] : overrides.items()) {
    bool* bug = k == "test_bug_fixed_fraction_follow"    ? &bugs.fixed_fraction_follow
                : k == "test_bug_rope_velocity_feedback" ? &bugs.rope_velocity_feedback
                : k == "test_bug_carry_per_joint"        ? &bugs.carry_per_joint
                                                         : nullptr;
    if (!bug) {
      spring[k] = v;
    } else if (v.is_boolean()) {
      *bug = v.get<bool>();
    } else {
      return bad(s, name + ": \"" + k + "\" must be true or false");
    }
  }
  std::string err;
  if (!pipeline::apply_solver_overrides(spring, p, err)) return bad(s, name + ": " + err);
  return Status::Ok();
}

Status build(const Scenario& s, const SynthRig& rig, const solver::ChainParams& p, solver::ChainDesc& desc,
             const SeededBugs& bugs) {
  // The synthetic rig is well formed by construction: refusing it is a regression.
  if (auto st = solver::testing::build_chain(rig.input(), p, bugs, desc); !st.ok())
    fail_regression(s.name, "solver setup: " + st.message);
  return Status::Ok();
}

std::vector<int> chains_from(const Scenario& s, std::vector<int> fallback) {
  return s.raw.contains("chains") ? s.raw["chains"].get<std::vector<int>>() : fallback;
}


solver::ChainRigInput chain_input(const rig::Skeleton& sk) {
  solver::ChainRigInput in;
  in.names = sk.names;
  in.parents = sk.parents;
  in.inverse_bind = sk.inverse_bind;
  in.hips = rig::hips_joint(sk);
  return in;
}

Status load_fixture_chain(const Scenario& s, const std::string& clip_name, const solver::ChainParams& base,
                          FixtureChain& out, solver::ChainParams& p) {
  detect::FixResult chained;
  if (Status st = load_chained_scenario_character(s, chained); !st.ok()) return st;
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
  if (auto st = solver::build_chain(chain_input(sk), p, out.desc); !st.ok())
    fail_regression(s.name, "solver setup of the detected chain: " + st.message);
  return Status::Ok();
}

Affine3d hips_of(const FixtureChain& fc, double t) {
  const auto w = rig::pose_at(fc.ch.skeleton, fc.clip, t);
  Affine3d a;
  a.matrix() = w[fc.desc.hips];
  return a;
}


}  // namespace harness::solver_invariants
