#include "detect/haunch_skin.h"

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

}  // namespace detect
