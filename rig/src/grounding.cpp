#include "rig/grounding.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include "rig/limb_contact.h"
#include "rig/pose.h"

namespace rig {
namespace {

std::vector<std::string> split_tokens(std::string_view name) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(ch)) {
      flush();
      continue;
    }
    if (!cur.empty()) {
      const unsigned char prev = static_cast<unsigned char>(name[i - 1]);
      const bool case_break = std::islower(prev) && std::isupper(ch);
      const bool digit_break = (std::isdigit(prev) != 0) != (std::isdigit(ch) != 0);
      if (case_break || digit_break) flush();
    }
    cur.push_back(static_cast<char>(std::tolower(ch)));
  }
  flush();
  return out;
}

}  // namespace

int dominant_joint(std::span<const Influence> infl) {
  int best = -1;
  double w = -1.0;
  for (const Influence& in : infl) {
    if (in.weight > w || (in.weight == w && in.joint < best)) {
      w = in.weight;
      best = in.joint;
    }
  }
  return best;
}

bool name_has_token(std::string_view name, std::string_view token) {
  std::string want(token);
  for (char& ch : want) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const std::string& t : split_tokens(name)) {
    if (t == want) return true;
  }
  return false;
}

std::vector<bool> tail_joint_mask(const Skeleton& sk, std::span<const int> explicit_tail) {
  const int n = sk.size();
  std::vector<bool> tail(n, false);
  if (!explicit_tail.empty()) {
    for (int j : explicit_tail) {
      if (j >= 0 && j < n) tail[j] = true;
    }
    return tail;
  }
  auto none = [&](int j) { return j >= static_cast<int>(sk.roles.size()) || sk.roles[j].part == BodyPart::kNone; };
  // By shape, for tails whose bones carry no "tail" name (any language, or
  // exported as Bone.012): a chain of at least two role-none joints hanging
  // from the hips through role-none joints only, with no body bone below it
  // (a quadruped's Back -> Tail1.., as detect::read_body reads existing tails).
  std::vector<char> role_below(static_cast<size_t>(n), 0), has_child(static_cast<size_t>(n), 0);
  for (int j = n - 1; j >= 0; --j) {
    if (!none(j)) role_below[j] = 1;
    const int p = sk.parents[j];
    if (p < 0 || p >= j) continue;
    role_below[p] = role_below[p] || role_below[j];
    has_child[p] = 1;
  }
  // Per joint: reached from the hips through role-none joints (the hips included).
  std::vector<char> from_hips(static_cast<size_t>(n), 0);
  for (int j = 0; j < n; ++j) {
    const int p = sk.parents[j];
    if (j < static_cast<int>(sk.roles.size()) && sk.roles[j].part == BodyPart::kHips) from_hips[j] = 1;
    else if (none(j) && p >= 0 && p < j && from_hips[p]) from_hips[j] = 1;
  }
  // A tail leads away from the head: some joint of it lies farther from the
  // head than its first (rump bones running forward along the trunk, a rat's
  // Hips -> Torso, are no tail).
  int head = -1;
  for (int j = 0; j < n && head < 0; ++j)
    if (j < static_cast<int>(sk.roles.size()) && sk.roles[j].part == BodyPart::kHead) head = j;
  const bool positions = head >= 0 && sk.bind_world.size() == static_cast<size_t>(n);
  // Per joint: the largest distance from the head of a joint below it.
  std::vector<double> farthest_below(static_cast<size_t>(n), -1.0);
  auto head_distance = [&](int j) {
    return (sk.bind_world[j].block<3, 1>(0, 3) - sk.bind_world[head].block<3, 1>(0, 3)).norm();
  };
  for (int j = n - 1; j >= 0 && positions; --j) {
    const int p = sk.parents[j];
    if (p >= 0 && p < j) farthest_below[p] = std::max({farthest_below[p], farthest_below[j], head_distance(j)});
  }
  auto away_from_head = [&](int first) { return !positions || farthest_below[first] > head_distance(first); };
  for (int j = 0; j < n; ++j) {
    if (!none(j)) continue;
    const int p = sk.parents[j];
    const bool parent_tail = p >= 0 && p < j && tail[p];
    const bool chain_from_hips = p >= 0 && p < j && from_hips[p] && !role_below[j] && has_child[j] &&
                                 !parent_tail && away_from_head(j);
    tail[j] = name_has_token(sk.names[j], "tail") || parent_tail || chain_from_hips;
  }
  return tail;
}

std::vector<bool> prop_joint_mask(const Skeleton& sk) {
  const int n = sk.size();
  const std::vector<bool> tail = tail_joint_mask(sk);
  std::vector<bool> prop(n, false);
  auto part = [&](int j) { return j < static_cast<int>(sk.roles.size()) ? sk.roles[j].part : BodyPart::kNone; };
  for (int j = 0; j < n; ++j) {
    if (part(j) != BodyPart::kNone || tail[j]) continue;
    int a = sk.parents[j];
    for (int steps = 0; a >= 0 && steps < n && part(a) == BodyPart::kNone; ++steps) a = sk.parents[a];
    if (a < 0) continue;
    const BodyPart p = part(a);
    prop[j] = p == BodyPart::kShoulder || p == BodyPart::kUpperArm || p == BodyPart::kForearm ||
              p == BodyPart::kHand || p == BodyPart::kNeck || p == BodyPart::kHead;
  }
  return prop;
}

std::span<const int> SkinGroups::of(int joint) const {
  if (joint < 0 || joint + 1 >= static_cast<int>(start.size())) return {};
  return std::span<const int>(vertices).subspan(start[joint], start[joint + 1] - start[joint]);
}

SkinGroups group_by_dominant_joint(const Character& c) {
  const int n = c.skeleton.size();
  const int nv = std::min(c.mesh.vertex_count(), static_cast<int>(c.skin.influences.size()));
  // Counting sort by dominant joint: stable, so ascending within a joint.
  std::vector<int> dominant(nv);
  SkinGroups g;
  g.start.assign(n + 1, 0);
  for (int v = 0; v < nv; ++v) {
    const int d = dominant_joint(c.skin.influences[v]);
    dominant[v] = d >= 0 && d < n ? d : -1;
    if (dominant[v] >= 0) ++g.start[dominant[v] + 1];
  }
  for (int j = 0; j < n; ++j) g.start[j + 1] += g.start[j];
  g.vertices.resize(g.start[n]);
  std::vector<int> next(g.start.begin(), g.start.end() - 1);
  for (int v = 0; v < nv; ++v)
    if (dominant[v] >= 0) g.vertices[next[dominant[v]]++] = v;
  return g;
}

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
  const Skeleton& sk = c.skeleton;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double floor = kInf;
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    if (s.tail[i] && !opt.count_tail) continue;
    floor = std::min(floor, c.mesh.positions[s.vertices[i]].y());
  }
  std::vector<double> lift(times.size(), 0.0);
  if (floor == kInf) return lift;
  std::vector<Transform> locals;
  std::vector<Mat4> world(sk.size());
  std::vector<Mat4> skinning(sk.size());
  for (size_t f = 0; f < times.size(); ++f) {
    locals = sk.neutral_local;
    apply_clip(clip, times[f], locals);
    local_to_world(sk, locals, world);
    for (int j = 0; j < sk.size(); ++j) skinning[j] = world[j] * sk.inverse_bind[j];
    // E(t): foot/ankle points of the legs in contact at this sample (all of
    // them when no phases are given).
    auto in_e = [&](size_t i) {
      if (!s.contact[i]) return false;
      if (opt.leg_contact.empty()) return true;
      const int li = s.leg[i];
      return li >= 0 && static_cast<size_t>(li) < opt.leg_contact.size() && f < opt.leg_contact[li].size() &&
             opt.leg_contact[li][f];
    };
    double low = kInf;
    for (size_t i = 0; i < s.vertices.size(); ++i) {
      if (in_e(i) || (s.tail[i] && !opt.count_tail)) continue;
      const Eigen::Vector4d p = c.mesh.positions[s.vertices[i]].homogeneous();
      double y = 0.0;
      for (const Influence& in : c.skin.influences[s.vertices[i]]) {
        y += in.weight * skinning[in.joint].row(1).dot(p);
      }
      low = std::min(low, y);
    }
    if (low == kInf) continue;  // nothing but tail and contact points
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
