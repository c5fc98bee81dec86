// Region shape: PCA of positions (SPEC §1.5) and axis-aligned boxes for the
// shell merge rule (SPEC §1.7, §11).
#pragma once

#include <limits>
#include <vector>

#include <Eigen/Core>

#include "rig/model/model.h"

namespace detect {

struct Shape {
  rig::Vec3 centroid = rig::Vec3::Zero();
  // Eigenvalues of the (population) position covariance, descending
  // λ1 ≥ λ2 ≥ λ3, in units²; axes.col(i) is the unit axis of eigenvalues(i).
  rig::Vec3 eigenvalues = rig::Vec3::Zero();
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  // sqrt(λ1/λ2): ~1 for a cape or skirt, ~2.6 for a tail (+inf when λ2 = 0).
  double elongation = 1.0;
  // sqrt(λ2/λ3): ~1 for a round cross-section (tail, scabbard), large for a
  // sheet (wing, hair, cape) (+inf when λ3 = 0).
  double flatness = 1.0;
};

// Shape of a point set (empty set: all zero, elongation 1).
Shape shape_of(const std::vector<rig::Vec3>& points);

// Reading chosen (issue 11): a tail is a tube, so its skin's cross-section
// about its own chain is round wherever it curls (a mouse's tail, curled in a
// plane, has flatness 7 over the whole region but round sections), while a
// sheet hung from the belt (a loincloth's or a coat's back panel) is wide
// and thin in every section. Per segment of `polyline`, the offsets of the
// `points` nearest that segment, taken perpendicular to it, have elongation
// sqrt(λ1/λ2): ~1 round, large flat. Only points whose nearest point lies
// strictly inside a segment count (one beyond an end or outside a bend
// measures no cross-section); zero-length segments and non-finite points
// are skipped. Returns the lower median over the segments that hold at
// least max(min_points, 3) points (a sheet is flat in every section; one
// flared section at a tail's root decides nothing), and 1 (round, nothing
// to tell) when none does or the polyline has fewer than two points.
struct SectionFlatness {
  double median = 1.0;
  int segments = 0;  // segments measured
};
SectionFlatness section_flatness(const std::vector<rig::Vec3>& points, const std::vector<rig::Vec3>& polyline,
                                 int min_points = 8);

struct Box {
  rig::Vec3 min = rig::Vec3::Constant(std::numeric_limits<double>::infinity());
  rig::Vec3 max = rig::Vec3::Constant(-std::numeric_limits<double>::infinity());
  void extend(const rig::Vec3& p) {
    min = min.cwiseMin(p);
    max = max.cwiseMax(p);
  }
  bool empty() const { return (max.array() < min.array()).any(); }
  double volume() const;  // 0 for an empty box
};

Box bounding_box(const std::vector<rig::Vec3>& points);
double intersection_volume(const Box& a, const Box& b);

// Merge rule (SPEC §11): intersection volume > `fraction` x the smaller box's
// volume. Two flat (zero-volume) boxes never merge.
bool boxes_overlap(const Box& a, const Box& b, double fraction = 0.5);

}  // namespace detect
