#include "rig/retarget/contact/grounding.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include "rig/anatomy/legs.h"
#include "rig/model/lowest_skin.h"
#include "rig/model/pose.h"

namespace rig {
SupportPoints sample_support(const Character& c, const GroundingOptions& opt) {
  return sample_support(c, group_by_dominant_joint(c), opt);
}

SupportPoints sample_support(const Character& c, const SkinGroups& groups, const GroundingOptions& opt) {
  const Skeleton& sk = c.skeleton;
  const int n = sk.size();
  // Groups: one per dominant joint, then group n for opt.tail_vertices.
  std::vector<std::vector<int>> by_joint(n + 1);
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  std::vector<char> listed_tail(nv, 0);
  for (int v : opt.tail_vertices)
    if (v >= 0 && v < nv) listed_tail[v] = 1;
  for (int j = 0; j < n; ++j)
    for (int v : groups.of(j))
      if (v < nv) by_joint[listed_tail[v] ? n : j].push_back(v);
  // The listed tail group in vertex order, as one mesh pass would give it.
  std::sort(by_joint[n].begin(), by_joint[n].end());
  const std::vector<bool> tail = tail_joint_mask(sk, opt.tail_joints);
  const std::vector<bool> prop = prop_joint_mask(sk);
  // Per shin of an IK leg: its ankle (bind) and the near-ankle radius.
  std::vector<int> ankle_of(n, -1);
  std::vector<double> near_ankle(n, 0.0);
  std::vector<int> leg_of(n, -1);  // thigh excluded: shin, foot and toe
  const std::vector<Leg> legs = find_legs(sk);
  for (size_t li = 0; li < legs.size(); ++li) {
    const Leg& leg = legs[li];
    for (int j : {leg.shin, leg.foot, leg.toe})
      if (j >= 0) leg_of[j] = static_cast<int>(li);
    const Vec3 hip = sk.bind_world[leg.thigh].block<3, 1>(0, 3), knee = sk.bind_world[leg.shin].block<3, 1>(0, 3);
    const Vec3 ankle = sk.bind_world[leg.foot].block<3, 1>(0, 3);
    ankle_of[leg.shin] = leg.foot;
    near_ankle[leg.shin] = opt.contact_shin_fraction * ((knee - hip).norm() + (ankle - knee).norm());
  }
  const size_t k = static_cast<size_t>(std::max(1, opt.points_per_joint));
  SupportPoints s;
  auto lower = [&](int a, int b) {
    const double ya = c.mesh.positions[a].y(), yb = c.mesh.positions[b].y();
    return ya < yb || (ya == yb && a < b);
  };
  for (int j = 0; j <= n; ++j) {
    std::vector<int>& vs = by_joint[j];
    if (j == n) {  // the listed tail vertices: all of them (no bone to sample by), all in T
      for (int v : vs) {
        s.vertices.push_back(v);
        s.dominant.push_back(dominant_joint(c.skin.influences[v]));
        s.tail.push_back(true);
        s.contact.push_back(false);
        s.leg.push_back(-1);
      }
      continue;
    }
    if (prop[j]) continue;  // props are not body: never in S
    size_t take = std::min(k, vs.size());
    std::partial_sort(vs.begin(), vs.begin() + static_cast<std::ptrdiff_t>(take), vs.end(), lower);
    const Role r = j < static_cast<int>(sk.roles.size()) ? sk.roles[j] : Role{};
    const bool foot = r.part == BodyPart::kFoot || r.part == BodyPart::kToe;
    if (foot && opt.foot_extremes && take < vs.size()) {
      // The bind-extreme vertex along each of the 26 directions {-1,0,1}^3
      // (ties: lower index), moved up behind the lowest ones, no repeats.
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz) {
            if (dx == 0 && dy == 0 && dz == 0) continue;
            const Vec3 dir(dx, dy, dz);
            size_t best = take;
            for (size_t i = take; i < vs.size(); ++i) {
              const double a = c.mesh.positions[vs[i]].dot(dir), b = c.mesh.positions[vs[best]].dot(dir);
              if (a > b || (a == b && vs[i] < vs[best])) best = i;
            }
            bool have = false;  // already taken by an earlier direction or as a lowest point
            for (size_t i = 0; i < take; ++i) {
              const double a = c.mesh.positions[vs[i]].dot(dir), b = c.mesh.positions[vs[best]].dot(dir);
              if (a >= b) have = true;
            }
            if (best < vs.size() && !have) std::swap(vs[take++], vs[best]);
            if (take == vs.size()) break;
          }
    }
    for (size_t i = 0; i < take; ++i) {
      const bool shin_near_ankle =
          ankle_of[j] >= 0 &&
          (c.mesh.positions[vs[i]] - sk.bind_world[ankle_of[j]].block<3, 1>(0, 3)).norm() <= near_ankle[j];
      s.vertices.push_back(vs[i]);
      s.dominant.push_back(j);
      s.tail.push_back(tail[j]);
      s.contact.push_back(foot || shin_near_ankle);
      s.leg.push_back(foot || shin_near_ankle ? leg_of[j] : -1);
    }
  }
  return s;
}

std::vector<double> ground_lift_raw(const Character& c, const Clip& clip,
                                    std::span<const double> times, const GroundingOptions& opt) {
  return ground_lift_raw(c, sample_support(c, opt), clip, times, opt);
}

std::vector<double> ground_lift_raw(const Character& c, const SupportPoints& s, const Clip& clip,
                                    std::span<const double> times, const GroundingOptions& opt) {
  return ground_lift_raw(c, s, index_lowest_skin(c, s.vertices), clip, times, opt);
}

std::vector<double> ground_lift_raw(const Character& c, const SupportPoints& s, const LowestSkinIndex& index,
                                    const Clip& clip, std::span<const double> times, const GroundingOptions& opt) {
  const Skeleton& sk = c.skeleton;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double floor = kInf;
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    if (s.tail[i] && !opt.count_tail) continue;
    floor = std::min(floor, c.mesh.positions[s.vertices[i]].y());
  }
  std::vector<double> lift(times.size(), 0.0);
  if (floor == kInf) return lift;
  // Per point, what decides whether it counts, read once (not through the
  // bit vectors at every key): -1 always, -2 never (in T uncounted, or in E
  // at every key), else the leg whose contact at the key puts it in E.
  constexpr int kAlways = -1, kNever = -2;
  const int legs = static_cast<int>(opt.leg_contact.size());
  std::vector<int> rule(s.vertices.size(), kAlways);
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    if (s.tail[i] && !opt.count_tail) rule[i] = kNever;
    else if (!s.contact[i]) rule[i] = kAlways;
    else if (opt.leg_contact.empty()) rule[i] = kNever;
    else if (s.leg[i] >= 0 && s.leg[i] < legs) rule[i] = s.leg[i];
  }
  std::vector<char> leg_in(static_cast<size_t>(legs), 0);
  const double cap = floor + opt.allowed_sink + 1e-9 * (1.0 + std::abs(floor) + std::abs(opt.allowed_sink));
  std::vector<std::pair<double, int>> order;
  std::vector<Transform> locals;
  std::vector<Mat4> world(sk.size());
  std::vector<Eigen::RowVector4d> height;  // y row of each skinning matrix
  for (size_t f = 0; f < times.size(); ++f) {
    locals = sk.neutral_local;
    apply_clip(clip, times[f], locals);
    local_to_world(sk, locals, world);
    skinning_heights(sk, world, height);  // the groups' bounds, and the heights below
    // E(t): foot/ankle points of the legs in contact at this sample (all of
    // them when no phases are given).
    for (int li = 0; li < legs; ++li) leg_in[li] = f < opt.leg_contact[li].size() && opt.leg_contact[li][f];
    const auto keep = [&](int i) {
      const int r = rule[static_cast<size_t>(i)];
      return r == kAlways || (r >= 0 && !leg_in[r]);
    };
    // Heights as grounding always summed them: a row of the skinning matrix
    // (skinning_heights' rows are that product's) dotted with the point,
    // in pairs as Eigen sums a strided row's dot product.
    const auto y_of = [&](int v) {
      const Vec3& p = c.mesh.positions[v];
      double y = 0.0;
      for (const Influence& in : c.skin.influences[v]) {
        const Eigen::RowVector4d& h = height[in.joint];
        y += in.weight * ((h[0] * p.x() + h[1] * p.y()) + (h[2] * p.z() + h[3] * 1.0));
      }
      return y;
    };
    // Only a point under floor + allowed_sink lifts (a margin far above
    // rounding): the groups above it are not searched (lowest_skinned_below).
    const double low = lowest_skinned_below(index, height, cap, keep, y_of, order).y;
    if (low == kInf) continue;  // nothing but tail and contact points, or nothing low enough
    const double clearance = low - floor;
    lift[f] = std::max(0.0, opt.allowed_sink - clearance);
  }
  return lift;
}

std::vector<double> smooth_lift(std::span<const double> raw, int radius) {
  const int n = static_cast<int>(raw.size());
  if (radius <= 0 || n == 0) return {raw.begin(), raw.end()};
  radius = std::min(radius, n);  // a wider window sees nothing more
  std::vector<double> dilated(n), out(n);
  for (int i = 0; i < n; ++i) {
    double m = raw[i];
    for (int j = std::max(0, i - radius); j <= std::min(n - 1, i + radius); ++j) m = std::max(m, raw[j]);
    dilated[i] = m;
  }
  for (int i = 0; i < n; ++i) {
    double sum = 0.0;
    int count = 0;
    for (int j = std::max(0, i - radius); j <= std::min(n - 1, i + radius); ++j) {
      sum += dilated[j];
      ++count;
    }
    out[i] = sum / count;
  }
  return out;
}

int smoothing_samples(std::span<const double> times, double seconds) {
  if (times.size() < 2 || !(seconds > 0)) return 0;
  const double dt = (times.back() - times.front()) / static_cast<double>(times.size() - 1);
  if (!(dt > 0)) return 0;
  // Never more samples than the clip has (a near-zero spacing would overflow).
  return static_cast<int>(std::lround(std::min(seconds / dt, static_cast<double>(times.size()))));
}

std::vector<double> ground_lift(const Character& c, const Clip& clip, std::span<const double> times,
                                const GroundingOptions& opt) {
  const std::vector<double> raw = ground_lift_raw(c, clip, times, opt);
  return smooth_lift(raw, smoothing_samples(times, opt.smoothing_radius_s));
}

std::vector<double> ground_lift(const Character& c, const SupportPoints& support, const Clip& clip,
                                std::span<const double> times, const GroundingOptions& opt) {
  const std::vector<double> raw = ground_lift_raw(c, support, clip, times, opt);
  return smooth_lift(raw, smoothing_samples(times, opt.smoothing_radius_s));
}

}  // namespace rig
