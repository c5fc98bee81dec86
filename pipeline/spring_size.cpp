// The bake's spring sized to the tail (issue 45 class 9). See spring_size.h.
#include "pipeline/spring_size.h"

#include <cstdio>

namespace pipeline {

SpringSizing sizing_without(const nlohmann::json& given) {
  SpringSizing s;
  if (!given.is_object()) return s;
  s.frequencies = !given.contains("root_frequency_hz") && !given.contains("tip_frequency_hz");
  s.damping = !given.contains("damping_ratio");
  s.teleport = !given.contains("teleport_distance");
  return s;
}

void size_spring_to_tail(double tail_length_m, double height_m, const SpringSizing& which, solver::ChainParams& p) {
  if (which.frequencies && tail_length_m > 0) {
    p.tip_frequency_hz = kTailWaveSpeed / tail_length_m;
    p.root_frequency_hz = kRootOverTip * p.tip_frequency_hz;
  }
  if (which.damping) p.damping_ratio = kSizedDamping;
  if (which.teleport && height_m > 0) p.teleport_distance = kTeleportOfH * height_m;
}

std::string spring_summary(const solver::ChainParams& p, const SpringSizing& which, double tail_length_m) {
  char b[256], h[32];
  std::snprintf(h, sizeof h, " (%.2g H)", kTeleportOfH);
  std::snprintf(b, sizeof b, "root %.3g Hz, tip %.3g Hz%s, damping %.2g%s, teleport %.3g m per frame%s",
                p.root_frequency_hz, p.tip_frequency_hz, which.frequencies ? "" : " (given)", p.damping_ratio,
                which.damping ? "" : " (given)", p.teleport_distance, which.teleport ? h : " (given)");
  std::string s = b;
  if (which.frequencies) {
    std::snprintf(b, sizeof b, "; sized to the %.3g m tail (tip = %.3g m/s / length)", tail_length_m, kTailWaveSpeed);
    s += b;
  }
  return s;
}

}  // namespace pipeline
