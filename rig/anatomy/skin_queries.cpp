#include "rig/anatomy/skin_queries.h"

#include <algorithm>

#include "rig/anatomy/name_tokens.h"

namespace rig {

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

}  // namespace rig
