// Bake the spring chain into looping keyframes (SPEC §9, warm-up reading of
// §11): whole loops are simulated until the tail state at the loop point, in
// the hips frame, stops changing; then one more loop is recorded.
#include "solver/bake.h"

#include <algorithm>
#include <cmath>

#include "math.h"
#include "solver/state.h"
#include "solver/step.h"

namespace solver {
namespace {

using Eigen::Quaterniond;
using Eigen::Vector3d;

// Loop-point state in the hips frame: positions relative to the tail root,
// velocities, 2N vectors.
void capture(const ChainDesc& desc, const ChainState& st, const Eigen::Affine3d& hips,
             std::vector<Vector3d>& out) {
  const Quaterniond inv = hips_frame_world(desc, hips).conjugate();
  const Vector3d root = root_head_world(desc, hips);
  const size_t n = st.pos.size();
  out.resize(2 * n);
  for (size_t i = 0; i < n; ++i) {
    out[i] = inv * (st.points[i + 1] - root);
    out[n + i] = inv * st.vel[i];
  }
}

}  // namespace

bool bake_loop(const ChainDesc& desc, const ChainParams& params,
               std::span<const Eigen::Affine3d> hips, const BakeOptions& options,
               BakeResult& out) {
  out = BakeResult{};
  if (hips.empty() || desc.links.empty() || !(options.sample_rate > 0.0)) return false;
  const size_t m = hips.size();
  const size_t n = desc.links.size();
  const double dt = 1.0 / options.sample_rate;
  const double height = options.model_height > 0.0 ? options.model_height : desc.total_length;

  ChainState st;
  init_state(desc, st);
  reset(desc, params, st, hips[0]);
  std::vector<Quaterniond> rot(n);
  std::vector<Vector3d> before, after;
  capture(desc, st, hips[0], before);
  const int max_passes = std::max(1, options.max_passes);
  for (int pass = 1; pass <= max_passes; ++pass) {
    for (size_t k = 1; k <= m; ++k) step(desc, params, st, dt, hips[k % m], rot);
    capture(desc, st, hips[0], after);
    double change = 0.0;
    for (size_t i = 0; i < after.size(); ++i) change = std::max(change, (after[i] - before[i]).norm());
    out.passes = pass;
    out.last_change = change / height;
    before.swap(after);
    if (out.last_change < options.tolerance) {
      out.converged = true;
      break;
    }
  }

  // Recording pass: key 0 is the loop-point state, keys 1..M follow.
  out.frames = static_cast<int>(m + 1);
  out.bones = static_cast<int>(n);
  out.times.resize(m + 1);
  out.rotations.resize((m + 1) * n);
  for (size_t i = 0; i < n; ++i) out.rotations[i] = st.out_local[i];
  out.times[0] = 0.0;
  for (size_t k = 1; k <= m; ++k) {
    step(desc, params, st, dt, hips[k % m], rot);
    out.times[k] = static_cast<double>(k) * dt;
    for (size_t i = 0; i < n; ++i) out.rotations[k * n + i] = rot[i];
  }
  double closure = 0.0;
  for (size_t i = 0; i < n; ++i) {
    Quaterniond& last = out.rotations[m * n + i];
    closure = std::max(closure, detail::quat_angle(last * out.rotations[i].conjugate()));
    last = out.rotations[i];  // close the loop exactly: first = last
  }
  out.closure_error_deg = closure * 180.0 / M_PI;
  return true;
}

}  // namespace solver
