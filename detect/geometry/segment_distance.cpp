#include "detect/geometry/segment_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace detect {

Vec3 joint_position(const rig::Skeleton& skeleton, int joint) {
  return skeleton.bind_world[joint].block<3, 1>(0, 3);
}

PolylinePoint nearest_on_polyline(const std::vector<Vec3>& polyline, const Vec3& p) {
  PolylinePoint out;
  double along = 0.0;
  for (size_t i = 1; i < polyline.size(); ++i) {
    const Vec3 a = polyline[i - 1], d = polyline[i] - polyline[i - 1];
    const double l2 = d.squaredNorm();
    const double raw = l2 > 0.0 ? (p - a).dot(d) / l2 : 0.0;
    const double t = std::clamp(raw, 0.0, 1.0);
    const Vec3 offset = p - (a + t * d);
    const double dist = offset.norm();
    if (dist < out.distance) {
      out.distance = dist;
      out.arc = along + t * std::sqrt(l2);
      out.segment = static_cast<int>(i) - 1;
      out.t = raw;
      out.offset = offset;
    }
    along += std::sqrt(l2);
  }
  return out;
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

namespace {

// A segment with the terms every query repeats computed once (ab, |ab|^2),
// plus the bounding sphere the field prunes with.
struct PreparedSegment {
  Vec3 a, ab, mid;
  double len2, radius;
};

PreparedSegment prepare(const BoneSegment& s) {
  PreparedSegment p;
  p.a = s.a;
  p.ab = s.b - s.a;
  p.len2 = p.ab.squaredNorm();
  p.mid = s.a + 0.5 * p.ab;
  p.radius = 0.5 * std::sqrt(p.len2);
  return p;
}

double distance_to(const Vec3& p, const PreparedSegment& s) {
  return segment_distance(p, s.a, s.ab, s.len2);
}

// Per cell of a grid over the points, the segments that can be nearest to
// some point in it: those whose distance from the cell's centre is within the
// cell's diameter of the smallest (the triangle inequality: a point lies
// within half a diameter of its cell's centre), with a relative margin for
// rounding. Every segment that attains a point's minimum is a candidate of
// its cell, in ascending order, so the lowest such index wins as in the full
// scan. A cell's list is made when a point first lands in it (a surface
// touches few of the 64^3 cells). A 1 M-vertex field then tries a few
// segments per vertex instead of every bone (issue 14).
class CandidateGrid {
 public:
  static constexpr int kCells = 64;  // per axis
  // Unusable unless there are enough points to pay for it and a finite,
  // moderate extent.
  CandidateGrid(const std::vector<Vec3>& points, const std::vector<PreparedSegment>& segments)
      : segments_(segments) {
    if (points.size() < size_t{65536} || segments.empty()) return;
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    for (const Vec3& p : points) {
      if (!p.allFinite()) continue;
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    extent_ = (hi - lo).maxCoeff();
    if (!(extent_ > 0.0) || !(extent_ < 1e100)) return;
    lo_ = lo;
    cell_ = extent_ / kCells;
    lists_.assign(size_t{kCells} * kCells * kCells, {-1, 0});
    distances_.resize(segments.size());
  }
  bool usable() const { return !lists_.empty(); }
  // The candidates of p's cell; false when p is not finite (full scan).
  bool candidates(const Vec3& p, const int*& first, const int*& last) {
    if (!p.allFinite()) return false;
    auto index = [this](double c, double lo) {
      return std::clamp(static_cast<int>(std::floor((c - lo) / cell_)), 0, kCells - 1);
    };
    const int x = index(p.x(), lo_.x()), y = index(p.y(), lo_.y()), z = index(p.z(), lo_.z());
    std::pair<int, int>& list = lists_[(static_cast<size_t>(x) * kCells + y) * kCells + z];
    if (list.first < 0) list = make_list(x, y, z);
    first = ids_.data() + list.first;
    last = first + list.second;
    return true;
  }

 private:
  std::pair<int, int> make_list(int x, int y, int z) {
    const Vec3 centre = lo_ + cell_ * Vec3(x + 0.5, y + 0.5, z + 0.5);
    double nearest = std::numeric_limits<double>::infinity();
    for (size_t s = 0; s < segments_.size(); ++s) {
      distances_[s] = distance_to(centre, segments_[s]);
      if (distances_[s] < nearest) nearest = distances_[s];
    }
    const double reach = (nearest + cell_ * std::sqrt(3.0)) * (1.0 + 1e-9) + 1e-9 * extent_;
    const int offset = static_cast<int>(ids_.size());
    for (size_t s = 0; s < segments_.size(); ++s) {
      if (!(distances_[s] > reach))
        ids_.push_back(static_cast<int>(s));  // NaN stays: it never wins anyway
    }
    return {offset, static_cast<int>(ids_.size()) - offset};
  }

  const std::vector<PreparedSegment>& segments_;
  Vec3 lo_ = Vec3::Zero();
  double cell_ = 0.0, extent_ = 0.0;
  std::vector<std::pair<int, int>> lists_;  // per cell: offset into ids_ and count; -1 until made
  std::vector<int> ids_;
  std::vector<double> distances_;  // scratch: one per segment
};

}  // namespace

std::vector<double> distance_field(const std::vector<Vec3>& points,
                                   const std::vector<BoneSegment>& segments,
                                   std::vector<int>* nearest) {
  std::vector<double> out(points.size(), std::numeric_limits<double>::infinity());
  if (nearest) nearest->assign(points.size(), -1);
  const int ns = static_cast<int>(segments.size());
  std::vector<PreparedSegment> prepared;
  prepared.reserve(segments.size());
  for (const BoneSegment& s : segments) prepared.push_back(prepare(s));
  CandidateGrid grid(points, prepared);
  // Large fields ask the candidate grid. Otherwise (and for a point the
  // grid cannot place) the previous point's nearest segment is tried first
  // (mesh vertices come in runs along the surface), and a segment whose
  // bounding sphere lies farther than the best distance so far is skipped:
  // |p - mid| - radius is a lower bound of its distance, kept with a 1e-9
  // margin so a skipped segment is always strictly farther. The result is
  // that of the full scan, bit for bit: the minimum, and the lowest segment
  // index that attains it (a 1 M-vertex field was a sixth of `fix`, issue 14).
  int hint = 0;
  for (size_t i = 0; i < points.size() && ns > 0; ++i) {
    const Vec3& p = points[i];
    const int *first = nullptr, *last = nullptr;
    if (grid.usable() && grid.candidates(p, first, last)) {
      double best = std::numeric_limits<double>::infinity();
      int best_s = -1;
      for (const int* s = first; s != last; ++s) {
        if (const double d = distance_to(p, prepared[*s]); d < best) {
          best = d;
          best_s = *s;
        }
      }
      if (best_s >= 0) out[i] = best;
      if (nearest) (*nearest)[i] = best_s;
      continue;
    }
    // As in the scan, only a distance below +infinity wins (never NaN).
    double best = std::numeric_limits<double>::infinity();
    int best_s = -1;
    if (const double d = distance_to(p, prepared[hint]); d < best) {
      best = d;
      best_s = hint;
    }
    for (int s = 0; s < ns; ++s) {
      if (s == hint) continue;
      const PreparedSegment& g = prepared[s];
      const double reach = (best + g.radius) * (1.0 + 1e-9);
      const double to_mid2 = (p - g.mid).squaredNorm();
      if (to_mid2 > reach * reach && to_mid2 < std::numeric_limits<double>::infinity()) continue;
      const double d = distance_to(p, g);
      if (d < best || (d == best && best_s >= 0 && s < best_s)) {
        best = d;
        best_s = s;
      }
    }
    if (best_s >= 0) {
      out[i] = best;
      hint = best_s;
    }
    if (nearest) (*nearest)[i] = best_s;
  }
  return out;
}

}  // namespace detect
