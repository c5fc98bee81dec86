#include "detect/geometry/shape.h"

#include "detect/geometry/segment_distance.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

namespace detect {

namespace {
double ratio_sqrt(double num, double den) {
  if (den <= 0.0) return num > 0.0 ? std::numeric_limits<double>::infinity() : 1.0;
  return std::sqrt(std::max(num, 0.0) / den);
}
}  // namespace

Shape shape_of(const std::vector<rig::Vec3>& points) {
  Shape s;
  if (points.empty()) return s;
  rig::Vec3 c = rig::Vec3::Zero();
  for (const auto& p : points) c += p;
  c /= static_cast<double>(points.size());
  Eigen::Matrix3d cov = Eigen::Matrix3d::Zero();
  for (const auto& p : points) {
    const rig::Vec3 d = p - c;
    cov += d * d.transpose();
  }
  cov /= static_cast<double>(points.size());
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(cov);
  // Eigen returns ascending order.
  s.centroid = c;
  for (int i = 0; i < 3; ++i) {
    s.eigenvalues(i) = std::max(eig.eigenvalues()(2 - i), 0.0);
    s.axes.col(i) = eig.eigenvectors().col(2 - i);
  }
  s.elongation = ratio_sqrt(s.eigenvalues(0), s.eigenvalues(1));
  s.flatness = ratio_sqrt(s.eigenvalues(1), s.eigenvalues(2));
  return s;
}

SectionFlatness section_flatness(const std::vector<rig::Vec3>& points, const std::vector<rig::Vec3>& polyline,
                                 int min_points) {
  SectionFlatness out;
  const int segments = static_cast<int>(polyline.size()) - 1;
  if (segments < 1) return out;
  std::vector<std::vector<rig::Vec3>> offsets(static_cast<size_t>(segments));
  for (const rig::Vec3& p : points) {
    if (!p.allFinite()) continue;
    const PolylinePoint n = nearest_on_polyline(polyline, p);
    if (n.segment >= 0 && n.t > 0.0 && n.t < 1.0) offsets[n.segment].push_back(n.offset);
  }
  std::vector<double> aspects;
  for (const std::vector<rig::Vec3>& o : offsets) {
    if (static_cast<int>(o.size()) < std::max(min_points, 3)) continue;
    aspects.push_back(shape_of(o).elongation);
  }
  if (aspects.empty()) return out;
  std::sort(aspects.begin(), aspects.end());
  out.segments = static_cast<int>(aspects.size());
  out.median = aspects[(aspects.size() - 1) / 2];
  return out;
}

double Box::volume() const {
  if (empty()) return 0.0;
  const rig::Vec3 e = max - min;
  return e.x() * e.y() * e.z();
}

Box bounding_box(const std::vector<rig::Vec3>& points) {
  Box b;
  for (const auto& p : points) b.extend(p);
  return b;
}

double intersection_volume(const Box& a, const Box& b) {
  if (a.empty() || b.empty()) return 0.0;
  const rig::Vec3 lo = a.min.cwiseMax(b.min);
  const rig::Vec3 hi = a.max.cwiseMin(b.max);
  const rig::Vec3 e = (hi - lo).cwiseMax(rig::Vec3::Zero());
  return e.x() * e.y() * e.z();
}

bool boxes_overlap(const Box& a, const Box& b, double fraction) {
  const double smaller = std::min(a.volume(), b.volume());
  if (smaller <= 0.0) return false;
  return intersection_volume(a, b) > fraction * smaller;
}

}  // namespace detect
