// Skeleton distance field (SPEC §1.1, §11 "end-joint extension").
// Distances are in bind space, in the file's units.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include "rig/model/model.h"

namespace detect {

using Vec3 = rig::Vec3;

// Distance from `p` to the segment a-b: t = clamp(((p-a)·(b-a))/|b-a|², 0, 1),
// d = |p - (a + t(b-a))|. A degenerate segment (a == b) is the point a.
// Inline: it runs per vertex and bone in the distance field and the bone
// distances of every region. The second form takes ab = b - a and |ab|^2
// computed once per segment, with the same bits.
inline double segment_distance(const Vec3& p, const Vec3& a, const Vec3& ab, double len2) {
  double t = 0.0;
  if (len2 > 0.0) t = std::clamp((p - a).dot(ab) / len2, 0.0, 1.0);
  return (p - (a + t * ab)).norm();
}
inline double segment_distance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  return segment_distance(p, a, ab, ab.squaredNorm());
}

// The point of a polyline (at least two points) nearest `p`: its distance,
// its arc length along the polyline, the segment holding it (the first on a
// tie; -1 when no distance is finite), where `p` projects on that segment's
// line in segment lengths (`t`, not clamped: 0 < t < 1 inside it; 0 on a
// zero-length segment) and p minus the nearest point (perpendicular to the
// segment when inside it).
struct PolylinePoint {
  double distance = std::numeric_limits<double>::infinity();
  double arc = 0.0;
  int segment = -1;
  double t = 0.0;
  Vec3 offset = Vec3::Zero();
};
PolylinePoint nearest_on_polyline(const std::vector<Vec3>& polyline, const Vec3& p);

// One bone segment in bind space. `joint` is the skeleton index of the joint
// whose transform moves the segment: the parent for a parent->child bone, the
// end joint itself for its extension segment.
struct BoneSegment {
  Vec3 a = Vec3::Zero();
  Vec3 b = Vec3::Zero();
  int joint = -1;
  bool extension = false;  // true for the segment past an end joint
};

// Joint position in bind space (translation of bind_world).
Vec3 joint_position(const rig::Skeleton& skeleton, int joint);

// Per joint: 1 when some vertex has a weight > 0 on it. When no joint carries
// weight (or `skin` is empty) every joint counts as deforming.
std::vector<char> deforming_joints(const rig::Skin& skin, int joint_count);

// Reading chosen (SPEC §11): the bones of the distance field are the segments
// parent->child whose parent deforms and whose child either deforms or is a
// leaf (an end helper such as HeadTop_End). A deforming joint with no such
// child segment is an end joint and gets an extension segment of
// `end_extension` x the incoming bone's length along the incoming direction
// (a root joint with no bone gets a point segment). A non-deforming joint
// that is not a root still gets its segments to deforming children. Other
// non-deforming chains (root at the floor, IK helpers, stripped tail bones)
// are left out.
// `deforming` has one entry per joint (use deforming_joints()).
std::vector<BoneSegment> skeleton_segments(const rig::Skeleton& skeleton,
                                           const std::vector<char>& deforming,
                                           double end_extension = 0.5);

// The minimum distance from `p` to any segment (+infinity when empty).
double distance_to_segments(const Vec3& p, const std::vector<BoneSegment>& segments);

// Per point: the minimum distance to any segment (+infinity when empty).
// If `nearest` is non-null it receives the index of the closest segment.
std::vector<double> distance_field(const std::vector<Vec3>& points,
                                   const std::vector<BoneSegment>& segments,
                                   std::vector<int>* nearest = nullptr);

}  // namespace detect
