// Links against colliders (see collide.h).
#include "collide.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace solver::detail {

namespace {

constexpr int kMaxPieces = 16;  // pieces of one link's swing in one internal step
constexpr int kPushes = 3;      // turns out of overlapping capsules per piece

V3 unit_or(const V3& v, const V3& fallback) {
  const double n2 = norm2(v);
  return n2 > 1e-24 ? (1.0 / std::sqrt(n2)) * v : fallback;
}

// Closest points of segments p0 + s (p1 - p0) and q0 + t (q1 - q0), s, t in [0, 1].
void closest_params(const V3& p0, const V3& p1, const V3& q0, const V3& q1, double& s, double& t) {
  const V3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  constexpr double kEps = 1e-18;
  if (a <= kEps && e <= kEps) {
    s = t = 0.0;
    return;
  }
  if (a <= kEps) {
    s = 0.0;
    t = std::clamp(f / e, 0.0, 1.0);
    return;
  }
  const double c = dot(d1, r);
  if (e <= kEps) {
    t = 0.0;
    s = std::clamp(-c / a, 0.0, 1.0);
    return;
  }
  const double b = dot(d1, d2), denom = a * e - b * b;
  s = denom > kEps * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
}

struct Overlap {
  double depth = 0.0;  // > 0: inside by this much (margin included)
  double s = 0.0;      // along the link
  V3 on_axis{0.0, 0.0, 0.0};
  V3 axis{0.0, 0.0, 0.0};  // unit axis of the capsule (zero for a sphere)
  double radius = 0.0;     // at on_axis, margin included
};

Overlap deepest(const V3& head, const V3& tip, std::span<const CapsuleM> capsules, double margin) {
  Overlap best;
  for (const CapsuleM& k : capsules) {
    double s = 0.0, t = 0.0;
    closest_params(head, tip, k.a, k.b, s, t);
    const V3 x = head + s * (tip - head);
    const V3 c = k.a + t * (k.b - k.a);
    const double r = k.radius_a + t * (k.radius_b - k.radius_a) + margin;
    const double depth = r - std::sqrt(norm2(x - c));
    if (depth > best.depth) {
      best.depth = depth;
      best.s = s;
      best.on_axis = c;
      best.axis = unit_or(k.b - k.a, V3{0.0, 0.0, 0.0});
      best.radius = r;
    }
  }
  return best;
}

// Turns the link (direction d) out of the capsules it overlaps, about its head.
V3 push_out(const V3& head, double len, V3 d, std::span<const CapsuleM> capsules, double margin,
            LinkContact& contact) {
  for (int k = 0; k < kPushes; ++k) {
    const Overlap o = deepest(head, head + len * d, capsules, margin);
    if (!(o.depth > 0.0)) break;
    const V3 x = head + (o.s * len) * d;
    // Out of the axis, perpendicular to it: from the axis towards the link's
    // closest point (across the axis from the head when that point is on it).
    V3 out = x - o.on_axis;
    out = out - dot(out, o.axis) * o.axis;
    V3 fallback = head - o.on_axis;
    fallback = fallback - dot(fallback, o.axis) * o.axis;
    const V3 n = unit_or(out, unit_or(fallback, V3{0.0, 1.0, 0.0}));
    const V3 target = o.on_axis + o.radius * n;
    // The head inside a capsule cannot be turned out: leave it.
    if (o.s * len < 1e-9) break;
    d = unit_or(target - head, d);
    contact.hit = true;
    contact.normal = n;
  }
  return d;
}

}  // namespace

V3 collide_link(const V3& head, double len, const V3& d_start, const V3& d, std::span<const CapsuleM> capsules,
                double margin, LinkContact& contact) {
  contact = LinkContact{};
  if (capsules.empty() || !(len > 0.0)) return d;
  double thinnest = std::numeric_limits<double>::infinity();
  for (const CapsuleM& k : capsules) thinnest = std::min(thinnest, std::min(k.radius_a, k.radius_b) + margin);
  const double step = 0.5 * std::max(thinnest, 1e-6);
  const double travel = len * std::sqrt(norm2(d - d_start));
  const int pieces = std::clamp(static_cast<int>(std::ceil(travel / step)), 1, kMaxPieces);
  for (int j = 1; j <= pieces; ++j) {
    const V3 dj = j == pieces ? d : unit_or(d_start + (static_cast<double>(j) / pieces) * (d - d_start), d);
    if (deepest(head, head + len * dj, capsules, margin).depth > 0.0)
      return push_out(head, len, dj, capsules, margin, contact);
  }
  return d;
}

}  // namespace solver::detail
