#include "measure/tail_motion.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace measure {

TailMotion tail_motion(std::span<const Eigen::Vector3d> tip,
                       const std::vector<std::vector<Eigen::Vector3d>>& dirs) {
  TailMotion m;
  if (!tip.empty()) {
    Eigen::Vector3d mean = Eigen::Vector3d::Zero();
    for (const auto& p : tip) mean += p;
    mean /= static_cast<double>(tip.size());
    double ss = 0;
    for (size_t i = 0; i < tip.size(); ++i) {
      ss += (tip[i] - mean).squaredNorm();
      for (size_t j = i + 1; j < tip.size(); ++j) m.tip_range = std::max(m.tip_range, (tip[i] - tip[j]).norm());
    }
    m.tip_rms = std::sqrt(ss / static_cast<double>(tip.size()));
  }
  for (const auto& d : dirs) {
    double worst = 0;
    for (size_t i = 0; i < d.size(); ++i)
      for (size_t j = i + 1; j < d.size(); ++j)
        worst = std::max(worst, std::atan2(d[i].cross(d[j]).norm(), d[i].dot(d[j])));
    m.bone_angle_range_deg.push_back(worst * 180.0 / std::numbers::pi);
  }
  return m;
}

double max_abs_delta(std::span<const double> a, std::span<const double> b) {
  double m = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

}  // namespace measure
