// The bake's spring sized to the tail (issue 45 class 9). See spring_size.h.
#include "pipeline/spring_size.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pipeline {

SpringSizing sizing_without(const nlohmann::json& given) {
  SpringSizing s;
  if (!given.is_object()) return s;
  s.frequencies = !given.contains("root_frequency_hz") && !given.contains("tip_frequency_hz");
  s.damping = !given.contains("damping_ratio");
  s.carry = !given.contains("carry_deg");
  return s;
}

TailShape tail_shape(const rig::Skeleton& sk, const solver::ChainDesc& desc, const solver::ChainParams& p) {
  Eigen::Vector3d end = Eigen::Vector3d::Zero();
  for (const solver::ChainLink& l : desc.links) {
    const Eigen::Matrix3d r = sk.bind_world[static_cast<size_t>(l.joint)].block<3, 3>(0, 0);
    // Rotation part of the bind matrix (its scale removed column by column).
    const Eigen::Vector3d d = r * l.bind_dir_local.cwiseQuotient(r.colwise().norm().transpose());
    end += l.length * d.normalized();  // link.length is in metres already
  }
  const Eigen::Vector3d fwd(p.forward_axis[0], p.forward_axis[1], p.forward_axis[2]);
  const Eigen::Vector3d lat(p.lateral_axis[0], p.lateral_axis[1], p.lateral_axis[2]);
  const Eigen::Vector3d up = fwd.cross(lat).normalized();  // the hips frame's Y (params.h)
  TailShape t;
  t.reach_m = end.norm();
  t.rise_over_length = desc.total_length > 0 ? end.dot(up) / desc.total_length : 0.0;
  return t;
}

double sized_tip_frequency(double reach_m, double internal_step) {
  if (!(reach_m > 0) || !std::isfinite(reach_m)) return 0.0;
  const double tip = kTailWaveSpeed / reach_m;
  if (!(internal_step > 0) || !std::isfinite(internal_step)) return tip;
  return std::min(tip, kMaxRootOmegaStep / (2.0 * M_PI * internal_step * kRootOverTip));
}

bool size_spring_to_tail(const TailShape& shape, const SpringSizing& which, solver::ChainParams& p) {
  if (which.frequencies && shape.reach_m > 0 && std::isfinite(shape.reach_m)) {
    p.tip_frequency_hz = sized_tip_frequency(shape.reach_m, p.internal_step);
    p.root_frequency_hz = kRootOverTip * p.tip_frequency_hz;
  }
  if (which.damping) p.damping_ratio = kSizedDamping;
  if (!which.carry) return false;
  const double carry = p.carry_deg * (1.0 - solver::raised_tail_blend(shape.rise_over_length));
  const bool changed = carry != p.carry_deg;
  p.carry_deg = carry;
  return changed;
}

std::string spring_summary(const solver::ChainParams& p, const SpringSizing& which, double tail_length_m) {
  char b[256];
  std::snprintf(b, sizeof b, "root %.3g Hz, tip %.3g Hz%s, damping %.2g%s, carry %.3g deg%s", p.root_frequency_hz,
                p.tip_frequency_hz, which.frequencies ? "" : " (given)", p.damping_ratio, which.damping ? "" : " (given)",
                p.carry_deg, which.carry ? "" : " (given)");
  std::string s = b;
  if (which.frequencies) {
    std::snprintf(b, sizeof b, "; sized to the tail's %.3g m reach (tip = %.3g m/s / reach", tail_length_m, kTailWaveSpeed);
    s += b;
    s += tail_length_m > 0 && p.tip_frequency_hz < kTailWaveSpeed / tail_length_m
             ? ", capped: the stiffest spring the internal step integrates faithfully)"
             : ")";
  }
  return s;
}

}  // namespace pipeline
