#include "detect/haunch_skin.h"

#include <algorithm>
#include <cmath>

namespace detect {

std::vector<int> without_haunch_skin(const std::vector<rig::Vec3>& positions, const std::vector<int>& region,
                                     const std::vector<rig::Vec3>& joints, const std::vector<BoneSegment>& legs,
                                     double margin) {
  if (joints.size() < 2 || legs.empty()) return region;
  std::vector<int> kept;
  kept.reserve(region.size());
  for (int v : region) {
    const rig::Vec3& p = positions[static_cast<size_t>(v)];
    if (nearest_on_polyline(joints, p).distance <= margin * distance_to_segments(p, legs)) kept.push_back(v);
  }
  return kept;
}

double seam_chain_share(const rig::Vec3& position, const std::vector<rig::Vec3>& joints,
                        const std::vector<BoneSegment>& legs, const HaunchSeam& seam) {
  if (joints.size() < 2 || legs.empty() || !(seam.leg_alone > seam.tail_alone)) return 1.0;
  const PolylinePoint n = nearest_on_polyline(joints, position);
  if (!(n.arc <= seam.band)) return 1.0;
  const double to_leg = distance_to_segments(position, legs);
  if (!(to_leg > 0.0) || !std::isfinite(to_leg)) return 1.0;
  const double ratio = n.distance / to_leg;
  return std::clamp((seam.leg_alone - ratio) / (seam.leg_alone - seam.tail_alone), 0.0, 1.0);
}

int share_seam_with_body(rig::Character& c, const std::vector<int>& vertices, const std::vector<double>& share,
                         const std::vector<std::vector<rig::Influence>>& before) {
  if (share.size() != vertices.size() || before.size() != vertices.size()) return 0;
  int blended = 0;
  for (size_t i = 0; i < vertices.size(); ++i) {
    const double s = share[i];
    if (!(s < 1.0)) continue;
    std::vector<rig::Influence>& infl = c.skin.influences[static_cast<size_t>(vertices[i])];
    std::vector<rig::Influence> out;
    for (const rig::Influence& x : infl)
      if (s * x.weight > 0.0) out.push_back({x.joint, s * x.weight});
    for (const rig::Influence& x : before[i]) {
      const double w = (1.0 - s) * x.weight;
      if (!(w > 0.0)) continue;
      auto same = std::find_if(out.begin(), out.end(), [&](const rig::Influence& y) { return y.joint == x.joint; });
      if (same != out.end()) {
        same->weight += w;
      } else {
        out.push_back({x.joint, w});
      }
    }
    // A share of 0 gives back the weights as they were (bit-identical).
    infl = s > 0.0 ? std::move(out) : before[i];
    ++blended;
  }
  return blended;
}

}  // namespace detect
