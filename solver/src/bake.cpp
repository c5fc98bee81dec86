// Bake the spring chain into keyframes (SPEC §9, warm-up reading of §11):
// loops are simulated whole until the tail state at the loop point, in the
// hips frame, stops changing; then one more loop is recorded, its seam
// measured, and closed. Non-looping clips are recorded once from the settled
// carry pose under their first frame.
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

// Longest cycle of whole loops the warm-up recognises (see bake_loop).
constexpr size_t kMaxCycleLoops = 8;

// Sample k's frame input: its hips and, when given, its colliders.
FrameInput frame(std::span<const Eigen::Affine3d> hips, const BakeOptions& o, size_t k) {
  FrameInput in;
  in.hips_world = hips[k];
  const size_t per = static_cast<size_t>(std::max(0, o.capsules_per_frame));
  if (per > 0 && (k + 1) * per <= o.capsules.size()) in.capsules = o.capsules.subspan(k * per, per);
  return in;
}

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

// Displayed tip (FK of the output rotations) in the hips frame, metres.
Vector3d tip_in_hips(const ChainDesc& desc, const ChainState& st, const Eigen::Affine3d& hips) {
  return hips_frame_world(desc, hips).conjugate() * (st.points.back() - root_head_world(desc, hips));
}

bool finite_input(const ChainDesc& desc, std::span<const Eigen::Affine3d> hips, const BakeOptions& options) {
  if (hips.empty() || desc.links.empty() || !(options.sample_rate > 0.0) || !std::isfinite(options.sample_rate))
    return false;
  for (const auto& h : hips)
    if (!h.matrix().allFinite()) return false;
  return true;
}

void size_result(size_t keys, size_t n, BakeResult& out) {
  out.frames = static_cast<int>(keys);
  out.bones = static_cast<int>(n);
  out.times.resize(keys);
  out.rotations.resize(keys * n);
  out.tip_in_hips.resize(keys);
}

// Largest difference between two captured loop-point states, metres.
double state_distance(const std::vector<Vector3d>& a, const std::vector<Vector3d>& b) {
  double change = 0.0;
  for (size_t i = 0; i < a.size(); ++i) change = std::max(change, (a[i] - b[i]).norm());
  return change;
}

// One loop from the current state: key 0 is that state, keys 1..M follow
// (rotations key-major, M + 1 tips in the hips frame).
void record_loop(const ChainDesc& desc, const ChainParams& params, ChainState& st,
                 std::span<const Eigen::Affine3d> hips, const BakeOptions& options, double dt,
                 std::vector<Quaterniond>& rot, std::vector<Quaterniond>& rotations, std::vector<Vector3d>& tips) {
  const size_t m = hips.size();
  const size_t n = desc.links.size();
  for (size_t i = 0; i < n; ++i) rotations[i] = st.out_local[i];
  tips[0] = tip_in_hips(desc, st, hips[0]);
  for (size_t k = 1; k <= m; ++k) {
    step(desc, params, st, dt, frame(hips, options, k % m), rot);
    for (size_t i = 0; i < n; ++i) rotations[k * n + i] = rot[i];
    tips[k] = tip_in_hips(desc, st, hips[k % m]);
  }
}

}  // namespace

bool bake_loop(const ChainDesc& desc, const ChainParams& given,
               std::span<const Eigen::Affine3d> hips, const BakeOptions& options,
               BakeResult& out) {
  out = BakeResult{};
  if (!finite_input(desc, hips, options)) return false;
  const size_t m = hips.size();
  const size_t n = desc.links.size();
  const double dt = 1.0 / options.sample_rate;
  const double height = options.model_height > 0.0 ? options.model_height : desc.total_length;
  // Idle sway: a whole number of periods per loop (the nearest to the one
  // asked for), so the swayed loop closes too.
  ChainParams params = given;
  if (params.idle_sway_deg > 0.0 && params.idle_sway_period > 0.0) {
    const double loop = static_cast<double>(m) * dt;
    params.idle_sway_period = loop / std::max(1.0, std::round(loop / params.idle_sway_period));
  }

  ChainState st;
  init_state(desc, st);
  reset(desc, params, st, hips[0]);
  std::vector<Quaterniond> rot(n);
  // Loop-point states of the last passes, newest last (at most
  // kMaxCycleLoops): a chain in floor or collider contact may settle into a
  // cycle of several loops (the tail striking the floor every other stride)
  // whose loop-point state never stops changing from pass to pass.
  std::vector<std::vector<Vector3d>> seen(1);
  capture(desc, st, hips[0], seen.back());
  std::vector<Vector3d> now;
  const int max_passes = std::max(0, options.max_passes);
  for (int pass = 1; pass <= max_passes; ++pass) {
    for (size_t k = 1; k <= m; ++k) step(desc, params, st, dt, frame(hips, options, k % m), rot);
    capture(desc, st, hips[0], now);
    out.passes = pass;
    out.last_change = state_distance(now, seen.back()) / height;
    if (out.last_change < options.tolerance) {
      out.converged = true;
      break;
    }
    for (int loops = 2; loops <= static_cast<int>(seen.size()); ++loops)
      if (state_distance(now, seen[seen.size() - static_cast<size_t>(loops)]) / height < options.tolerance) {
        out.cycle_loops = loops;
        break;
      }
    if (out.cycle_loops > 1) {
      out.converged = true;
      break;
    }
    if (seen.size() == kMaxCycleLoops) seen.erase(seen.begin());
    seen.push_back(now);
  }

  // Recording pass: key 0 is the loop-point state, keys 1..M follow. A
  // cycle of P loops is recorded whole and written as its mean loop, which
  // closes (its end is the mean of the next loops' starts).
  size_result(m + 1, n, out);
  record_loop(desc, params, st, hips, options, dt, rot, out.rotations, out.tip_in_hips);
  for (size_t k = 1; k <= m; ++k) out.times[k] = static_cast<double>(k) * dt;
  if (out.cycle_loops > 1) {
    std::vector<Eigen::Vector4d> sum(out.rotations.size());
    for (size_t j = 0; j < sum.size(); ++j) sum[j] = out.rotations[j].coeffs();
    std::vector<Quaterniond> rotations(out.rotations.size());
    std::vector<Vector3d> tips(m + 1);
    for (int loop = 1; loop < out.cycle_loops; ++loop) {
      record_loop(desc, params, st, hips, options, dt, rot, rotations, tips);
      for (size_t j = 0; j < sum.size(); ++j) {
        const double sign = rotations[j].coeffs().dot(out.rotations[j].coeffs()) < 0.0 ? -1.0 : 1.0;
        sum[j] += sign * rotations[j].coeffs();
      }
      for (size_t k = 0; k <= m; ++k) out.tip_in_hips[k] += tips[k];
    }
    for (size_t j = 0; j < sum.size(); ++j) out.rotations[j].coeffs() = sum[j].normalized();
    for (auto& tip : out.tip_in_hips) tip /= static_cast<double>(out.cycle_loops);
  }
  out.bone_closure_error_deg.resize(n);
  for (size_t i = 0; i < n; ++i) {
    Quaterniond& last = out.rotations[m * n + i];
    const double e = detail::quat_angle(last * out.rotations[i].conjugate()) * 180.0 / M_PI;
    out.bone_closure_error_deg[i] = e;
    out.closure_error_deg = std::max(out.closure_error_deg, e);
    if (options.close_loop) last = out.rotations[i];  // the written loop closes exactly
  }
  out.tip_closure_error = (out.tip_in_hips[m] - out.tip_in_hips[0]).norm();
  if (options.close_loop) out.tip_in_hips[m] = out.tip_in_hips[0];
  return true;
}

bool bake_clip(const ChainDesc& desc, const ChainParams& params,
               std::span<const Eigen::Affine3d> hips, const BakeOptions& options,
               BakeResult& out) {
  out = BakeResult{};
  if (!finite_input(desc, hips, options)) return false;
  const size_t keys = hips.size();
  const size_t n = desc.links.size();
  const double dt = 1.0 / options.sample_rate;
  ChainState st;
  init_state(desc, st);
  reset(desc, params, st, hips[0]);  // settled carry pose under the first frame
  std::vector<Quaterniond> rot(n);
  size_result(keys, n, out);
  step(desc, params, st, 0.0, frame(hips, options, 0), rot);  // dt 0: writes the reset pose
  for (size_t k = 0; k < keys; ++k) {
    if (k > 0) step(desc, params, st, dt, frame(hips, options, k), rot);
    out.times[k] = static_cast<double>(k) * dt;
    for (size_t i = 0; i < n; ++i) out.rotations[k * n + i] = rot[i];
    out.tip_in_hips[k] = tip_in_hips(desc, st, hips[k]);
  }
  out.bone_closure_error_deg.assign(n, 0.0);
  return true;
}

}  // namespace solver
