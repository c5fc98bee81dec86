#include "detect/attachment.h"

#include <algorithm>
#include <limits>

#include "detect/geometry/segment_distance.h"

namespace detect {

std::vector<int> attachment_ring(const Graph& graph, const std::vector<int>& region,
                                 const std::vector<char>& far) {
  std::vector<int> ring;
  for (int v : region) {
    for (int u : graph.neighbors_of(v)) {
      if (!far[u]) ring.push_back(u);
    }
  }
  std::sort(ring.begin(), ring.end());
  ring.erase(std::unique(ring.begin(), ring.end()), ring.end());
  return ring;
}

rig::Vec3 centroid(const std::vector<rig::Vec3>& points) {
  rig::Vec3 c = rig::Vec3::Zero();
  if (points.empty()) return c;
  for (const auto& p : points) c += p;
  return c / static_cast<double>(points.size());
}

bool is_trunk_or_thigh(rig::BodyPart part) {
  return part == rig::BodyPart::kHips || part == rig::BodyPart::kSpine ||
         part == rig::BodyPart::kThigh;
}

AttachmentJoint choose_attachment_joint(const rig::Skeleton& skeleton, const rig::Vec3& point,
                                        const std::vector<char>& candidates,
                                        double preference) {
  AttachmentJoint out;
  const int n = skeleton.size();
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  for (int j = 0; j < n; ++j) {
    if (!candidates.empty() && !candidates[j]) continue;
    dist[j] = (joint_position(skeleton, j) - point).norm();
    if (out.nearest < 0 || dist[j] < out.nearest_distance) {
      out.nearest = j;
      out.nearest_distance = dist[j];
    }
  }
  if (out.nearest < 0) return out;
  out.joint = out.nearest;
  out.distance = out.nearest_distance;
  const bool have_roles = static_cast<int>(skeleton.roles.size()) == n;
  if (!have_roles) return out;
  if (is_trunk_or_thigh(skeleton.roles[out.nearest].part)) return out;
  int best = -1;
  for (int j = 0; j < n; ++j) {
    if (dist[j] > preference * out.nearest_distance) continue;
    if (!is_trunk_or_thigh(skeleton.roles[j].part)) continue;
    if (best < 0 || dist[j] < dist[best]) best = j;
  }
  if (best >= 0) {
    out.joint = best;
    out.distance = dist[best];
  }
  return out;
}

}  // namespace detect
