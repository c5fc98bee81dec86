#include "detect/geometry/bone_distance.h"

#include <algorithm>
#include <limits>

namespace detect {

std::vector<std::vector<BoneSegment>> bones_by_joint(const rig::Skeleton& skeleton,
                                                     double end_extension) {
  const std::vector<char> all(skeleton.size(), 1);
  std::vector<std::vector<BoneSegment>> out(skeleton.size());
  for (const auto& s : skeleton_segments(skeleton, all, end_extension)) out[s.joint].push_back(s);
  return out;
}

double weighted_bone_distance(const rig::Vec3& p, const std::vector<rig::Influence>& influences,
                              const std::vector<std::vector<BoneSegment>>& bones) {
  double sum = 0.0, wsum = 0.0;
  for (const auto& inf : influences) {
    if (inf.weight <= 0.0 || inf.joint < 0 || inf.joint >= static_cast<int>(bones.size())) continue;
    double d = std::numeric_limits<double>::infinity();
    for (const auto& s : bones[inf.joint]) d = std::min(d, segment_distance(p, s.a, s.b));
    if (bones[inf.joint].empty()) continue;
    sum += inf.weight * d;
    wsum += inf.weight;
  }
  return wsum > 0.0 ? sum / wsum : 0.0;
}

double mean_bone_distance(const rig::Character& c, const std::vector<int>& vertices) {
  if (vertices.empty()) return 0.0;
  const auto bones = bones_by_joint(c.skeleton);
  double sum = 0.0;
  for (int v : vertices) {
    sum += weighted_bone_distance(c.mesh.positions[v], c.skin.influences[v], bones);
  }
  return sum / static_cast<double>(vertices.size());
}

}  // namespace detect
