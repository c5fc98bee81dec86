// libFuzzer target: the C API (tailrig_solver.h) on fuzzed collider params,
// frame inputs (version, capsule count, capsules near the tail or raw
// doubles: NaN, infinity, huge, negative radii), dt and hips. Never a crash;
// every call returns OK or a refusal with a one-line message, a refused call
// leaves the chain's output as it was, and outputs stay finite.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "solver/tailrig_solver.h"
#include "fuzz_reader.h"
#include "test_rig.h"

namespace {

struct Reader : FuzzReader {
  // In a wild frame, now and then the raw double (NaN, infinity, huge,
  // negative); else in [lo, hi]. Tame frames keep every value sane, so
  // counts at and past the bound meet capsules the checks let through.
  bool wild = false;
  double mostly(double lo, double hi) { return wild && byte() % 8 == 0 ? next() : in(lo, hi); }
};

void check_result(tailrig_status s) {
  if (s == TAILRIG_OK) return;
  if (s != TAILRIG_ERROR_INVALID_ARGUMENT && s != TAILRIG_ERROR_NON_FINITE) std::abort();
  const char* message = tailrig_last_error();
  if (message[0] == '\0' || std::strchr(message, '\n')) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{{data, size}};
  const int bones = 1 + r.byte() % 8;
  const auto rig = solver::testing::make_rig(bones);
  std::vector<const char*> names;
  for (const std::string& name : rig.names) names.push_back(name.c_str());
  std::vector<double> ibm;
  for (const Eigen::Matrix4d& m : rig.inverse_bind) ibm.insert(ibm.end(), m.data(), m.data() + 16);
  tailrig_chain* chain = nullptr;
  if (tailrig_chain_create(names.data(), rig.parents.data(), ibm.data(),
                           static_cast<int32_t>(names.size()), -1, nullptr, &chain) != TAILRIG_OK)
    std::abort();

  r.wild = true;
  tailrig_collider_params cp;
  tailrig_collider_params_default(&cp);
  cp.margin = r.mostly(0.0, 0.2);
  cp.friction = r.mostly(0.0, 1.0);
  check_result(tailrig_chain_set_collider_params(chain, &cp));
  // Idle sway (issue 46): mostly usable values, sometimes wild or refused.
  tailrig_sway_params sway;
  tailrig_sway_params_idle(&sway);
  sway.amplitude_deg = r.mostly(0.0, 40.0);
  sway.period = r.mostly(0.05, 5.0);
  sway.still_speed = r.mostly(0.01, 1.0);
  sway.fade = r.mostly(0.01, 2.0);
  check_result(tailrig_chain_set_sway_params(chain, &sway));

  std::vector<double> before(static_cast<size_t>(4 * bones)), after(before.size());
  tailrig_capsule capsules[TAILRIG_MAX_CAPSULES + 2];
  for (int frame = 0; frame < 64 && r.n > 0; ++frame) {
    r.wild = r.byte() % 4 == 0;
    tailrig_frame_input in;
    tailrig_frame_input_default(&in);
    if (r.wild && r.byte() % 8 == 0) in.version = r.byte();
    // Hips: a yaw and a translation, sometimes raw (NaN, infinity) or far;
    // finite values within 1e4 as in step_fuzz (the hips have no bound yet).
    const double yaw = r.in(-M_PI, M_PI);
    Eigen::Vector3d hips_at;
    for (int i = 0; i < 3; ++i) {
      const double v = r.mostly(-2, 2);
      hips_at[i] = std::isfinite(v) ? std::clamp(v, -1e4, 1e4) : v;
    }
    Eigen::Map<Eigen::Matrix4d>(in.hips_world) = solver::testing::hips_pose(hips_at, yaw).matrix();
    // -2 .. TAILRIG_MAX_CAPSULES + 1: both ends of the range and past them.
    in.capsule_count = static_cast<int32_t>(r.byte() % (TAILRIG_MAX_CAPSULES + 4)) - 2;
    for (int c = 0; c < TAILRIG_MAX_CAPSULES + 2; ++c) {
      tailrig_capsule& k = capsules[c];
      for (int i = 0; i < 3; ++i) {
        k.a[i] = in.hips_world[12 + i] + r.mostly(-1, 1);
        k.b[i] =
            r.byte() % 4 == 0 ? k.a[i] : in.hips_world[12 + i] + r.mostly(-1, 1);  // spheres too
      }
      k.radius_a = r.mostly(0.0, 0.3);
      k.radius_b = r.mostly(0.0, 0.3);
    }
    in.capsules = r.wild && r.byte() % 8 == 0 ? nullptr : capsules;
    const double raw_dt = r.next();
    const double dt = r.wild                  ? raw_dt
                      : std::isfinite(raw_dt) ? std::fmod(std::fabs(raw_dt), 0.2)
                                              : 0.0;

    if (tailrig_chain_local_rotations(chain, before.data(), bones) != TAILRIG_OK) std::abort();
    const tailrig_status s = tailrig_chain_step_frame(chain, dt, &in);
    check_result(s);
    if (tailrig_chain_local_rotations(chain, after.data(), bones) != TAILRIG_OK) std::abort();
    if (s != TAILRIG_OK &&
        std::memcmp(before.data(), after.data(), after.size() * sizeof(double)) != 0)
      std::abort();  // a refused frame changed the chain
    for (const double v : after)
      if (!std::isfinite(v)) std::abort();
  }
  tailrig_chain_destroy(chain);
  return 0;
}
