// In-place clips: whether the standing feet slide under a body that stays
// (rig/retarget/in_place.h).
#include "rig/retarget/in_place.h"

#include <algorithm>
#include <cmath>

namespace rig {
namespace {

constexpr double kMinSlide = 0.25;      // x leg length over the clip: slower is standing still
constexpr double kHipsTravelMax = 0.25;  // x the soles' slide: more, and the hips carry the walk

double median(std::vector<double> v) {
  const size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  return v[m];
}

}  // namespace

bool walks_in_place(std::span<const double> times, const std::vector<const std::vector<Vec3>*>& soles,
                    const std::vector<Vec3>& hips, double leg_length) {
  const int n = static_cast<int>(times.size());
  if (n < 3 || static_cast<int>(hips.size()) != n || !(leg_length > 0) || !std::isfinite(leg_length)) return false;
  const double duration = times[n - 1] - times[0];
  if (!(duration > 0) || !std::isfinite(duration)) return false;
  std::vector<double> vx, vz;
  for (int k = 0; k < n; ++k) {
    const std::vector<Vec3>* low = nullptr;
    for (const std::vector<Vec3>* s : soles)
      if (static_cast<int>(s->size()) == n && std::isfinite((*s)[k].y()) && (!low || (*s)[k].y() < (*low)[k].y()))
        low = s;
    if (!low) continue;
    const int k0 = std::max(0, k - 1), k1 = std::min(n - 1, k + 1);
    const double dt = times[k1] - times[k0];
    const Vec3 step = (*low)[k1] - (*low)[k0];
    if (!(dt > 0) || !step.allFinite()) continue;
    vx.push_back(step.x() / dt);
    vz.push_back(step.z() / dt);
  }
  if (vx.size() < 3) return false;
  const Vec3 v(median(vx), 0.0, median(vz));
  const double slide = v.norm() * duration;
  if (!(slide >= kMinSlide * leg_length) || !std::isfinite(slide)) return false;
  double travel = 0.0;  // how far the hips get from where they start, horizontally
  for (const Vec3& h : hips) {
    Vec3 d = h - hips[0];
    d.y() = 0.0;
    if (!d.allFinite()) return false;
    travel = std::max(travel, d.norm());
  }
  return travel <= kHipsTravelMax * slide;
}

}  // namespace rig
