// Idle sway in the batch solver (issue 46; batch.h): each chain's sway
// clock and smoothed speed, kept in double as the scalar ChainState keeps
// them, give the kernel per lane the phase, its advance over the frame and
// the turn per link (batch_kernel_sway.inc does the rest).
#include <cmath>

#include "idle_sway.h"
#include "solver/batch.h"

namespace solver {

bool Batch::sway_lanes(const BatchFrame& clock, int b, BatchSwayLanes& out) const {
  if (!(params_.idle_sway_deg > 0.0) || clock.substeps == 0) return false;
  const double period = detail::sway_period(params_);
  bool any = false;
  for (int l = 0; l < kBatchLanes; ++l) {
    const int c = b * kBatchLanes + l;
    const size_t u = static_cast<size_t>(c);
    const bool live = c < count_ && !rejected_now_[u];
    const double amplitude = live ? detail::sway_amplitude(params_, sway_speed_[u]) : 0.0;
    // The scalar step's angle at its clock t + s dt is amplitude sin(2 pi (t + s dt) / T).
    out.phase.v[l] =
        live ? static_cast<float>(2.0 * M_PI * std::fmod(sway_time_[u], period) / period) : 0.0f;
    out.dphase.v[l] = static_cast<float>(2.0 * M_PI * clock.dt / period);
    out.turn.v[l] = static_cast<float>(amplitude / links());
    any = any || out.turn.v[l] != 0.0f;
  }
  return any;
}

void Batch::advance_sway(const BatchFrame& clock, int b, const BatchHipsLanes& prev,
                         const BatchHipsLanes& next) {
  if (!(params_.idle_sway_deg > 0.0) || !(clock.dt > 0.0) || !std::isfinite(clock.dt)) return;
  const double mpu = desc_.meters_per_unit;
  for (int l = 0; l < kBatchLanes; ++l) {
    const int c = b * kBatchLanes + l;
    const size_t u = static_cast<size_t>(c);
    if (c >= count_ || rejected_now_[u]) continue;
    // How far the body carried the tail: the root's travel plus the hips'
    // turn swept over the tail's length (step.cpp).
    auto root = [&](const BatchHipsLanes& h) {
      const Eigen::Quaterniond q(h.rot[3].v[l], h.rot[0].v[l], h.rot[1].v[l], h.rot[2].v[l]);
      const Eigen::Vector3d t(h.trans[0].v[l], h.trans[1].v[l], h.trans[2].v[l]);
      const Eigen::Vector3d o(h.offset[0].v[l], h.offset[1].v[l], h.offset[2].v[l]);
      return std::pair<Eigen::Quaterniond, Eigen::Vector3d>(q, t + q * o);
    };
    const auto [rot_prev, root_prev] = root(prev);
    const auto [rot_next, root_next] = root(next);
    const double moved = (root_next - root_prev).norm() * mpu;
    const double turn = rot_next.angularDistance(rot_prev);
    detail::advance_sway(params_, sway_time_[u], sway_speed_[u], clock.dt,
                         moved + turn * desc_.total_length);
  }
}

}  // namespace solver
