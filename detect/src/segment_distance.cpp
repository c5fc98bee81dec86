#include "detect/segment_distance.h"

#include <algorithm>
#include <limits>

namespace detect {

double segment_distance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  double t = 0.0;
  if (len2 > 0.0) t = std::clamp((p - a).dot(ab) / len2, 0.0, 1.0);
  return (p - (a + t * ab)).norm();
}

Vec3 joint_position(const rig::Skeleton& skeleton, int joint) {
  return skeleton.bind_world[joint].block<3, 1>(0, 3);
}

std::vector<char> deforming_joints(const rig::Skin& skin, int joint_count) {
  std::vector<char> out(joint_count, 0);
  bool any = false;
  for (const auto& list : skin.influences) {
    for (const auto& inf : list) {
      if (inf.weight > 0.0 && inf.joint >= 0 && inf.joint < joint_count) {
        out[inf.joint] = 1;
        any = true;
      }
    }
  }
  if (!any) std::fill(out.begin(), out.end(), 1);
  return out;
}

std::vector<BoneSegment> skeleton_segments(const rig::Skeleton& skeleton,
                                           const std::vector<char>& deforming,
                                           double end_extension) {
  const int n = skeleton.size();
  std::vector<std::vector<int>> children(n);
  for (int j = 0; j < n; ++j) {
    const int p = skeleton.parents[j];
    if (p >= 0) children[p].push_back(j);
  }
  std::vector<BoneSegment> out;
  for (int j = 0; j < n; ++j) {
    const Vec3 a = joint_position(skeleton, j);
    if (!deforming[j]) {
      // A weightless joint inside the skeleton (Quaternius' non-deforming
      // Hips above a deforming Torso) still carries the bone to a deforming
      // child; a weightless root (a floor-level `root`) does not.
      if (skeleton.parents[j] < 0) continue;
      for (int c : children[j]) {
        if (deforming[c]) out.push_back({a, joint_position(skeleton, c), j, false});
      }
      continue;
    }
    bool has_child_segment = false;
    for (int c : children[j]) {
      if (deforming[c] || children[c].empty()) {
        out.push_back({a, joint_position(skeleton, c), j, false});
        has_child_segment = true;
      }
    }
    if (has_child_segment) continue;
    const int p = skeleton.parents[j];
    // Reading chosen (issue 11): a joint hung straight from a weightless
    // root (feet of IK rigs under a floor-level `root`) has no real incoming
    // bone; extending root->foot past the foot reached a rat's tail lying on
    // the floor behind it. It gets a point segment.
    const bool fake_bone = p >= 0 && !deforming[p] && skeleton.parents[p] < 0;
    if (p >= 0 && !fake_bone) {
      const Vec3 incoming = a - joint_position(skeleton, p);
      out.push_back({a, a + end_extension * incoming, j, true});
    } else {
      out.push_back({a, a, j, true});
    }
  }
  return out;
}

double distance_to_segments(const Vec3& p, const std::vector<BoneSegment>& segments) {
  double best = std::numeric_limits<double>::infinity();
  for (const BoneSegment& s : segments) best = std::min(best, segment_distance(p, s.a, s.b));
  return best;
}

std::vector<double> distance_field(const std::vector<Vec3>& points,
                                   const std::vector<BoneSegment>& segments,
                                   std::vector<int>* nearest) {
  std::vector<double> out(points.size(), std::numeric_limits<double>::infinity());
  if (nearest) nearest->assign(points.size(), -1);
  for (size_t i = 0; i < points.size(); ++i) {
    for (size_t s = 0; s < segments.size(); ++s) {
      const double d = segment_distance(points[i], segments[s].a, segments[s].b);
      if (d < out[i]) {
        out[i] = d;
        if (nearest) (*nearest)[i] = static_cast<int>(s);
      }
    }
  }
  return out;
}

}  // namespace detect
