#include "rig/anatomy/facing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "rig/anatomy/role_names.h"

namespace rig {
namespace {

constexpr double kPi = 3.14159265358979323846;
// A mirrored pair sits level: height difference below this x its spread.
constexpr double kMirrorLevel = 0.5;

Vec3 pos(const Skeleton& sk, int j) { return sk.bind_world[j].block<3, 1>(0, 3); }

bool usable(const Skeleton& sk) {
  return sk.size() > 0 && sk.bind_world.size() == static_cast<size_t>(sk.size()) &&
         sk.parents.size() == static_cast<size_t>(sk.size());
}

// Mean of the left joints minus the right ones', horizontal; zero when one
// side has none. `role(j)` gives a joint's role. The limbs' first bones
// (thighs, clavicles, upper arms) where there are some on both sides: they
// sit at the trunk, where a bind pose caught mid-stride does not stagger
// them as it does knees and feet.
template <typename RoleOf>
Vec3 left_minus_right(const Skeleton& sk, RoleOf role) {
  for (const bool proximal_only : {true, false}) {
    Vec3 l = Vec3::Zero(), r = Vec3::Zero();
    int nl = 0, nr = 0;
    for (int j = 0; j < sk.size(); ++j) {
      const Vec3 p = pos(sk, j);
      const Role ro = role(j);
      const bool proximal =
          ro.part == BodyPart::kThigh || ro.part == BodyPart::kShoulder || ro.part == BodyPart::kUpperArm;
      if (!p.allFinite() || ro.part == BodyPart::kNone || (proximal_only && !proximal)) continue;
      if (ro.side == Side::kLeft) l += p, ++nl;
      if (ro.side == Side::kRight) r += p, ++nr;
    }
    if (nl == 0 || nr == 0) continue;
    Vec3 d = l / nl - r / nr;
    d.y() = 0;
    return d;
  }
  return Vec3::Zero();
}

// Median distance from each joint, mirrored across the plane through `at`
// with normal `axis`, to its nearest joint: near zero for the plane of a
// bilaterally symmetric skeleton. At most kMirrorJoints joints are checked
// (evenly strided), so the cost stays bounded on any file.
constexpr int kMirrorJoints = 512;
double mirror_error(const std::vector<Vec3>& p, const Vec3& axis, const Vec3& at) {
  const size_t n = p.size(), stride = std::max<size_t>(1, n / kMirrorJoints);
  std::vector<double> err;
  for (size_t i = 0; i < n; i += stride) {
    const Vec3 m = p[i] - 2.0 * (p[i] - at).dot(axis) * axis;
    double best = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < n; k += stride) best = std::min(best, (m - p[k]).squaredNorm());
    err.push_back(std::sqrt(best));
  }
  if (err.empty()) return std::numeric_limits<double>::infinity();
  // The median: a tail curled to one side, a prop in one hand or a head
  // turned off the centre line are a few joints that mirror onto nothing.
  std::nth_element(err.begin(), err.begin() + static_cast<std::ptrdiff_t>(err.size() / 2), err.end());
  return err[err.size() / 2];
}

// The horizontal axis (a unit vector, sign open) across which the skeleton
// mirrors itself. Candidates: two children of one joint with equal-sized
// subtrees sitting level (legs off the pelvis, shoulders off the chest, ears
// off the head; also a quadruped's pelvis and chest off the middle of its
// back, its front and hind legs off one body bone, diagonal pairs); the one
// whose plane maps the joints best onto joints wins (a head and a tail do
// not mirror front to back). Zero when no plane mirrors the joints within
// kMirrorTolerance of their extent.
constexpr double kMirrorTolerance = 0.05;
constexpr int kMaxCandidates = 64;
constexpr int kMaxPairs = 4096;  // sibling pairs looked at, on any file
Vec3 mirror_axis(const Skeleton& sk) {
  const int n = sk.size();
  auto parent = [&](int j) {
    const int p = sk.parents[j];
    return p >= 0 && p < j ? p : -1;  // topological order; anything else is a root
  };
  std::vector<int> size(n, 1);
  for (int j = n - 1; j >= 0; --j)
    if (parent(j) >= 0) size[parent(j)] += size[j];
  std::vector<std::vector<int>> kids(n);
  std::vector<Vec3> points;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int j = 0; j < n; ++j) {
    if (!pos(sk, j).allFinite()) continue;
    points.push_back(pos(sk, j));
    lo = lo.cwiseMin(points.back());
    hi = hi.cwiseMax(points.back());
    if (parent(j) >= 0) kids[parent(j)].push_back(j);
  }
  const double extent = points.empty() ? 0.0 : (hi - lo).norm();
  struct Candidate {
    Vec3 axis, at;
    double weight;
  };
  std::vector<Candidate> cands;
  for (int p = 0; p < n && cands.size() < static_cast<size_t>(kMaxPairs); ++p) {
    const std::vector<int>& k = kids[p];
    for (size_t i = 0; i < k.size() && cands.size() < static_cast<size_t>(kMaxPairs); ++i)
      for (size_t m = i + 1; m < k.size() && cands.size() < static_cast<size_t>(kMaxPairs); ++m) {
        const int a = k[i], b = k[m];
        if (size[a] != size[b]) continue;
        const Vec3 d = pos(sk, a) - pos(sk, b);
        const double spread = std::hypot(d.x(), d.z());
        if (!(spread > 0) || std::abs(d.y()) > kMirrorLevel * spread) continue;
        cands.push_back({Vec3(d.x() / spread, 0, d.z() / spread), 0.5 * (pos(sk, a) + pos(sk, b)), spread * size[a]});
      }
  }
  // The heaviest candidates only: each costs a pass over the joints.
  std::stable_sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) { return a.weight > b.weight; });
  if (cands.size() > static_cast<size_t>(kMaxCandidates)) cands.resize(kMaxCandidates);
  Vec3 best_axis = Vec3::Zero();
  double best_error = kMirrorTolerance * extent;
  for (const Candidate& c : cands) {
    const double e = mirror_error(points, c.axis, c.at);
    if (e < best_error) best_error = e, best_axis = c.axis;
  }
  return best_axis;
}

}  // namespace

Facing facing_with_left(const Vec3& left) {
  Facing f;
  const double len = std::hypot(left.x(), left.z());
  if (!(len > 0) || !std::isfinite(len)) return f;
  // forward = left x up; its heading from +Z about Y.
  const double fx = -left.z() / len, fz = left.x() / len;
  double heading = std::atan2(fx, fz);
  const double quarter = kPi / 2;
  const double k = std::round(heading / quarter);
  if (std::abs(heading - k * quarter) <= kFacingSnapDeg * kPi / 180.0) {
    // Exact quarter turns: X and Z permuted, signs flipped.
    const int q = ((static_cast<int>(k) % 4) + 4) % 4;
    const double c[4] = {1, 0, -1, 0}, s[4] = {0, 1, 0, -1};
    f.to_canonical << c[q], 0, -s[q], 0, 1, 0, s[q], 0, c[q];
    return f;
  }
  // Turn by -heading about Y: forward -> +Z.
  const double c = std::cos(heading), s = std::sin(heading);
  f.to_canonical << c, 0, -s, 0, 1, 0, s, 0, c;
  return f;
}

Facing facing_from_skeleton(const Skeleton& sk, bool* from_names) {
  if (from_names) *from_names = false;
  if (!usable(sk)) return {};
  const Vec3 named = left_minus_right(sk, [&](int j) { return role_from_name(sk.names[j]); });
  if (named.norm() > 0) {
    if (from_names) *from_names = true;
    return facing_with_left(named);
  }
  Vec3 axis = mirror_axis(sk);
  if (axis.x() < 0 || (axis.x() == 0 && axis.z() < 0)) axis = -axis;
  return facing_with_left(axis);
}

Facing facing_from_roles(const Skeleton& sk, bool* found) {
  if (found) *found = false;
  if (!usable(sk) || sk.roles.size() != static_cast<size_t>(sk.size())) return {};
  const Vec3 left = left_minus_right(sk, [&](int j) { return sk.roles[j]; });
  if (found) *found = std::hypot(left.x(), left.z()) > 0;
  return facing_with_left(left);
}

}  // namespace rig
