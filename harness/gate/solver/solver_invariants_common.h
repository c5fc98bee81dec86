// Shared by the solver invariant scenarios (run_solver_invariants.cpp and
// solver_invariants_*.cpp): scenario parameters, the synthetic tail rig, the
// SPEC §4 hip swing, the headless chain driver and fixture-chain loading.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include "rig/model/model.h"
#include "harness/gate/runners.h"
#include "solver/step.h"
#include "solver/testing/seeded_bugs.h"

namespace harness::solver_invariants {

using rig::Status;
using Eigen::Affine3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;
using solver::testing::SeededBugs;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

Status bad(const Scenario& s, const std::string& m);

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
  double unit_scale = 1.0;   // rig units per metre (100: built in centimetres)
  // Each tail bone gets its own bind rotation (bone frames differ from the
  // hips); `end_twist` rotates only the last bone's frame.
  bool twist_bones = false;
  bool end_twist = false;
};

SynthRig make_rig(const SynthSpec& sp);

Affine3d hips_pose(const Vector3d& pos, double yaw_rad);

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

HipSwing swing_from(const Scenario& s);
SynthSpec synth_from(const Scenario& s, int bones);

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

// Steps one chain with the scalar reference, or -- while a BatchScope is
// alive on this thread (harness run --solver batch) -- with a one-chain
// solver::Batch whose state is mirrored into `st` after every call, so the
// scenario code reads one ChainState either way. `bugs` re-enables historical
// bugs of step(), which exist only in the scalar reference: those runs stay
// scalar.
class ChainDriver {
 public:
  ChainDriver(const solver::ChainDesc& desc, const solver::ChainParams& p, const SeededBugs& bugs = {});
  ~ChainDriver();
  ChainDriver(const ChainDriver&) = delete;
  ChainDriver& operator=(const ChainDriver&) = delete;
  void reset(const Affine3d& hips);
  void step(double dt, const Affine3d& hips, std::span<Quaterniond> rot);
  bool batch() const { return batch_ != nullptr; }
  solver::ChainState st;

 private:
  void mirror();
  const solver::ChainDesc& desc_;
  solver::ChainParams params_;
  SeededBugs bugs_;
  struct BatchState;
  BatchState* batch_ = nullptr;
};

// While alive, ChainDrivers created on this thread use the batch solver.
class BatchScope {
 public:
  explicit BatchScope(bool on);
  ~BatchScope();
  BatchScope(const BatchScope&) = delete;
  BatchScope& operator=(const BatchScope&) = delete;

 private:
  bool previous_;
};

using Motion = std::function<Affine3d(double)>;

Run run_motion(const solver::ChainDesc& desc, const solver::ChainParams& params, const Motion& motion,
               double fps, double duration, const SeededBugs& bugs = {});

// The scenario's "solver" overrides on default chain parameters.
Status base_params(const Scenario& s, solver::ChainParams& p);
// One of the scenario's "variants_solver" objects, `name`, on top of `p` and
// `bugs`: its "test_bug_*" booleans set the seeded historical bugs, the rest
// are spring parameters.
Status variant_params(const Scenario& s, const std::string& name, const nlohmann::json& overrides,
                      solver::ChainParams& p, SeededBugs& bugs);
// build_chain on a synthetic rig (with the build-time bug of `bugs`); a
// setup failure becomes a scenario error.
Status build(const Scenario& s, const SynthRig& rig, const solver::ChainParams& p, solver::ChainDesc& desc,
             const SeededBugs& bugs = {});
// The scenario's "chains" (tail bone counts) or `fallback`.
std::vector<int> chains_from(const Scenario& s, std::vector<int> fallback);

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
                          FixtureChain& out, solver::ChainParams& p);
// The clip's hips world matrix at time t (file units).
Affine3d hips_of(const FixtureChain& fc, double t);
// Chain input straight from a loaded skeleton (hips from its roles).
solver::ChainRigInput chain_input(const rig::Skeleton& sk);

// The scenario kinds, one per "solver_*" kind; grouped by theme in
// solver_invariants_{swing,timing,ground,rig}.cpp.
Status fast_hip_swing(const Scenario& s, ScenarioResult& out);
// Kind "colliders_swing_past_shin" (solver_invariants_colliders.cpp).
Status swing_past_shin(const Scenario& s, ScenarioResult& out);
Status lr_symmetry(const Scenario& s, ScenarioResult& out);
Status bend_smoothness(const Scenario& s, ScenarioResult& out);
Status fps_independence(const Scenario& s, ScenarioResult& out);
Status teleport(const Scenario& s, ScenarioResult& out);
Status loop_closure(const Scenario& s, ScenarioResult& out);
Status contact_never_moves_body(const Scenario& s, ScenarioResult& out);
Status ground(const Scenario& s, ScenarioResult& out);
Status bind_pose_recovery(const Scenario& s, ScenarioResult& out);
Status rotated_end_bone(const Scenario& s, ScenarioResult& out);

}  // namespace harness::solver_invariants
