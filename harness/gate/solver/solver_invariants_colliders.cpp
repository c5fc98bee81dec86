// Kind "colliders_swing_past_shin" (issue 46): synthetic chains whose hips
// turn fast from side to side, a vertical shin standing where the tail's
// middle sweeps (its tip sweeps farther out). Per chain, the same motion
// without and with the shin as a collider: without, the tail sweeps past
// the shin's angle; with, it stops on its own side, no link ever inside the
// shin (margin included, at every internal step's particles), every link
// its length. A second pass with frames of `slow_frame_s` checks the same
// holds however long the caller's frames are. Scalar reference only (the
// batch solver has no colliders yet).
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "harness/gate/solver/solver_invariants_common.h"
#include "solver/colliders.h"

namespace harness::solver_invariants {

namespace {

struct ShinRun {
  double max_tip_deg = -1e9;    // tail tip round the hips' vertical axis, from straight behind
  double max_depth_m = -1.0;    // deepest any link went into the shin, margin included (<= 0: never)
  double max_length_error = 0;  // relative
};

double depth_in(const solver::Capsule& k, const Vector3d& p, double margin) {
  return k.radius_a + margin - std::hypot(p.x() - k.a.x(), p.z() - k.a.z());  // vertical axis
}

// `colliders`: what the chain is stepped with; `shin`: what depth is measured against.
ShinRun drive(const solver::ChainDesc& desc, const solver::ChainParams& p, double amplitude_deg, double period_s,
              double hips_height, std::span<const solver::Capsule> colliders, const solver::Capsule& shin,
              double frame_s, double duration_s) {
  solver::ChainState st;
  solver::init_state(desc, st);
  std::vector<Quaterniond> rot(static_cast<size_t>(desc.size()));
  ShinRun r;
  const int frames = static_cast<int>(std::lround(duration_s / frame_s));
  for (int f = 0; f <= frames; ++f) {
    const double t = f * frame_s;
    const Affine3d hips =
        hips_pose(Vector3d(0, hips_height, 0), amplitude_deg * kDeg * std::sin(2.0 * kPi * t / period_s));
    solver::step(desc, p, st, f == 0 ? 0.0 : frame_s, solver::FrameInput{hips, colliders}, rot);
    const Vector3d tip = st.points.back();
    r.max_tip_deg = std::max(r.max_tip_deg, std::atan2(-tip.x(), -tip.z()) / kDeg);
    Vector3d head = solver::root_head_world(desc, hips);
    for (int i = 0; i < desc.size(); ++i) {
      const Vector3d q = st.pos[static_cast<size_t>(i)];
      for (int s = 0; s <= 20; ++s)
        r.max_depth_m = std::max(r.max_depth_m, depth_in(shin, head + (q - head) * (s / 20.0), p.collider_margin));
      r.max_length_error =
          std::max(r.max_length_error, std::abs((q - head).norm() / desc.links[static_cast<size_t>(i)].length - 1.0));
      head = q;
    }
  }
  return r;
}

}  // namespace

Status swing_past_shin(const Scenario& s, ScenarioResult& out) {
  solver::ChainParams p;
  if (Status st = base_params(s, p); !st.ok()) return st;
  const double amplitude = param(s, "turn_amplitude_deg", 70.0);
  const double period = param(s, "turn_period_s", 0.4);
  const double shin_deg = param(s, "shin_deg", 25.0);
  const double shin_from_axis = param(s, "shin_from_axis_m", 0.4);
  const double shin_radius = param(s, "shin_radius_m", 0.04);
  const double fps = param(s, "fps", 30.0);
  const double slow_frame = param(s, "slow_frame_s", 0.1);
  const double duration = param(s, "duration_s", 2.0);
  if (!(fps > 0 && slow_frame > 0 && duration > 0 && period > 0 && shin_radius > 0))
    return bad(s, "fps, slow_frame_s, duration_s, turn_period_s and shin_radius_m must be positive");
  const Vector3d at(-shin_from_axis * std::sin(shin_deg * kDeg), 0.0, -shin_from_axis * std::cos(shin_deg * kDeg));
  const solver::Capsule shin[] = {{at - Vector3d(0, 5, 0), at + Vector3d(0, 5, 0), shin_radius, shin_radius}};
  for (int bones : chains_from(s, {1, 4})) {
    SynthSpec spec = synth_from(s, bones);
    solver::ChainDesc desc;
    if (Status st = build(s, make_rig(spec), p, desc); !st.ok()) return st;
    const std::string pre = "bones_" + std::to_string(bones) + ".";
    const ShinRun free_run = drive(desc, p, amplitude, period, spec.hips_height, {}, shin[0], 1.0 / fps, duration);
    const ShinRun blocked = drive(desc, p, amplitude, period, spec.hips_height, shin, shin[0], 1.0 / fps, duration);
    const ShinRun slow = drive(desc, p, amplitude, period, spec.hips_height, shin, shin[0], slow_frame, duration);
    out.metrics[pre + "free.max_tip_deg"] = free_run.max_tip_deg;
    out.metrics[pre + "free.max_depth_m"] = free_run.max_depth_m;
    out.metrics[pre + "blocked.max_tip_deg"] = blocked.max_tip_deg;
    out.metrics[pre + "blocked.max_depth_m"] = blocked.max_depth_m;
    out.metrics[pre + "blocked.max_length_error_rel"] = blocked.max_length_error;
    out.metrics[pre + "slow_frames.max_tip_deg"] = slow.max_tip_deg;
    out.metrics[pre + "slow_frames.max_depth_m"] = slow.max_depth_m;
  }
  out.metrics["shin_deg"] = shin_deg;
  return Status::Ok();
}

}  // namespace harness::solver_invariants
