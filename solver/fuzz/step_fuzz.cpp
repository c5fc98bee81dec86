// libFuzzer target: solver::step on fuzzed parameters (within the ranges a
// scenario accepts), frame times and hips transforms (any doubles, NaN and
// infinity included). Never a crash or an endless loop; a non-finite hips
// frame is ignored and outputs stay finite.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "solver/solver.h"
#include "fuzz_reader.h"
#include "test_rig.h"

namespace {

using Reader = FuzzReader;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  solver::ChainParams p;
  p.root_frequency_hz = r.in(0, 100);
  p.tip_frequency_hz = r.in(0, 100);
  p.damping_ratio = r.in(0, 100);
  p.gravity = r.in(-1000, 1000);
  p.carry_deg = r.in(-360, 360);
  p.rest_curve = r.in(0, 1);
  p.bend_coupling_rate = r.in(0, 10000);
  p.bend_limit_deg = r.in(-360, 360);
  p.floor_height = r.in(-100, 100);
  // From 1 ms: at 0.1 ms a 1 s frame is 10,000 internal steps, and under
  // ASan an input took seconds (8 inputs in 20 s), starving the search.
  p.internal_step = r.in(1e-3, 1);
  const int bones = 1 + static_cast<int>(r.in(0, 7.99));
  const auto rig = solver::testing::make_rig(bones);
  solver::ChainDesc desc;
  if (!solver::build_chain(rig.input(), p, desc).ok()) return 0;
  solver::ChainState st;
  solver::init_state(desc, st);
  std::vector<Eigen::Quaterniond> out(static_cast<size_t>(bones));
  for (int frame = 0; frame < 64 && r.n > 0; ++frame) {
    const double dt = r.next();
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    // Hips: a rotation and a translation, each component either a fuzzed raw
    // double (NaN, huge) or a sane value.
    const Eigen::Quaterniond q = Eigen::Quaterniond(r.in(-1, 1), r.in(-1, 1), r.in(-1, 1), r.in(-1, 1) + 1.5).normalized();
    m.block<3, 3>(0, 0) = q.toRotationMatrix();
    for (int k = 0; k < 3; ++k) {
      const double raw = r.next();
      m(k, 3) = frame % 7 != 3 ? r.in(-10, 10) : std::isfinite(raw) ? std::clamp(raw, -1e4, 1e4) : raw;
    }
    solver::step(desc, p, st, std::isfinite(dt) ? std::fmod(std::fabs(dt), 1.0) : dt, m, out);
    for (const auto& o : out)
      if (!o.coeffs().allFinite()) std::abort();
  }
  return 0;
}
