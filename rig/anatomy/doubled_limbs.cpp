// Limbs that double another (see doubled_limbs.h).
#include "rig/anatomy/doubled_limbs.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rig {

namespace {

Vec3 pos(const Skeleton& sk, int j) { return sk.bind_world[j].block<3, 1>(0, 3); }

double distance_to_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return (p - (a + t * ab)).norm();
}

// Every joint of `a` lies on the bones of `b`.
bool lies_on(const Skeleton& sk, const LimbChain& a, const LimbChain& b, double tolerance) {
  for (int j : a.joints) {
    double best = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k + 1 < b.joints.size(); ++k)
      best = std::min(best, distance_to_segment(pos(sk, j), pos(sk, b.joints[k]), pos(sk, b.joints[k + 1])));
    if (!(best <= tolerance)) return false;
  }
  return true;
}

// `a` is preferred over `b` as the real limb.
bool preferred(const LimbChain& a, size_t ia, const LimbChain& b, size_t ib) {
  if (a.skinned != b.skinned) return a.skinned > b.skinned;
  if (a.trunk_size != b.trunk_size) return a.trunk_size > b.trunk_size;
  if (a.joints.size() != b.joints.size()) return a.joints.size() > b.joints.size();
  return ia < ib;
}

}  // namespace

std::vector<char> doubled_limbs(const Skeleton& sk, const std::vector<LimbChain>& chains, const double H) {
  const size_t n = chains.size();
  std::vector<char> doubled(n, 0);
  if (!(H > 0) || !std::isfinite(H)) return doubled;
  const double tolerance = kDoubledFraction * H;
  // Best first, so a kept chain is never one already dropped.
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return preferred(chains[a], a, chains[b], b); });
  for (size_t oi = 0; oi < n; ++oi) {
    const size_t keep = order[oi];
    if (doubled[keep] || chains[keep].joints.size() < 2) continue;
    for (size_t oj = oi + 1; oj < n; ++oj) {
      const size_t other = order[oj];
      if (doubled[other] || chains[other].joints.size() < 2 || chains[other].x_sign != chains[keep].x_sign) continue;
      if (lies_on(sk, chains[other], chains[keep], tolerance)) doubled[other] = 1;
    }
  }
  return doubled;
}

}  // namespace rig
