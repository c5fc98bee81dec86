#include "detect/rewrite/strip_tail.h"

#include <algorithm>
#include <limits>
#include <map>
#include <regex>

#include "detect/geometry/bone_distance.h"
#include "detect/geometry/segment_distance.h"
#include "rig/io/edit.h"
#include "rig/anatomy/roles.h"

namespace detect {

const char* const kDefaultTailRegex = "(^|[^a-z0-9])tail[0-9]*([^a-z]|$)";

bool matches_tail_name(const std::string& name, const std::string& regex) {
  const std::regex re(regex, std::regex::ECMAScript | std::regex::icase);
  return std::regex_search(name, re);
}

rig::Status strip_tail(const rig::Character& in, const StripTailParams& params,
                       rig::Character& out, StripTailResult* result) {
  using rig::Status;
  if (!in.has_skin()) return Status::Error(Status::Code::kBadData, "no skinned mesh");
  const rig::Skeleton& sk = in.skeleton;
  const int n = sk.size();
  std::regex re;
  try {
    re = std::regex(params.regex, std::regex::ECMAScript | std::regex::icase);
  } catch (const std::regex_error&) {
    return Status::Error(Status::Code::kBadData, "bad bone regex: " + params.regex);
  }
  std::vector<char> tail(n, 0);
  for (int j = 0; j < n; ++j) {  // parents first: descendants inherit
    tail[j] = std::regex_search(sk.names[j], re) || (sk.parents[j] >= 0 && tail[sk.parents[j]]);
  }
  StripTailResult res;
  for (int j = 0; j < n; ++j) {
    if (tail[j]) res.removed.push_back(j);
  }
  if (res.removed.empty()) {
    return Status::Error(Status::Code::kBadData, "no bone matches " + params.regex);
  }
  std::vector<rig::Role> roles = sk.roles;
  if (static_cast<int>(roles.size()) != n) {
    rig::Skeleton copy = sk;
    rig::assign_roles(copy);
    roles = copy.roles;
    roles.resize(n);
  }
  for (int j = 0; j < n; ++j) {
    const auto part = roles[j].part;
    const bool body = part == rig::BodyPart::kHips || part == rig::BodyPart::kThigh ||
                      part == rig::BodyPart::kShin || part == rig::BodyPart::kFoot;
    if (body && !tail[j]) res.targets.push_back(j);
  }
  if (res.targets.empty()) {
    // No roles: the non-tail ancestors of the tail roots stand in.
    for (int j : res.removed) {
      const int p = sk.parents[j];
      if (p >= 0 && !tail[p]) res.targets.push_back(p);
    }
    std::sort(res.targets.begin(), res.targets.end());
    res.targets.erase(std::unique(res.targets.begin(), res.targets.end()), res.targets.end());
  }
  if (res.targets.empty()) {
    return Status::Error(Status::Code::kBadData, "no body bone to give the tail weights to");
  }
  const auto bones = bones_by_joint(sk);
  out = in;
  for (int v = 0; v < in.mesh.vertex_count(); ++v) {
    const auto& list = in.skin.influences[v];
    double tail_weight = 0.0;
    for (const auto& inf : list) {
      if (inf.joint >= 0 && inf.joint < n && tail[inf.joint]) tail_weight += inf.weight;
    }
    bool touches_tail = false;
    for (const auto& inf : list) touches_tail |= inf.joint >= 0 && inf.joint < n && tail[inf.joint];
    if (!touches_tail) continue;
    const rig::Vec3& p = in.mesh.positions[v];
    std::vector<std::pair<double, int>> near;
    for (int j : res.targets) {
      double d = std::numeric_limits<double>::infinity();
      for (const auto& s : bones[j]) d = std::min(d, segment_distance(p, s.a, s.b));
      near.emplace_back(d, j);
    }
    std::sort(near.begin(), near.end());
    near.resize(std::min<size_t>(near.size(), std::max(1, params.nearest_bones)));
    std::map<int, double> merged;
    for (const auto& inf : list) {
      if (!(inf.joint >= 0 && inf.joint < n && tail[inf.joint])) merged[inf.joint] += inf.weight;
    }
    double inv_sum = 0.0;
    for (const auto& [d, j] : near) inv_sum += 1.0 / std::max(d * d, 1e-24);
    for (const auto& [d, j] : near) {
      merged[j] += tail_weight * (1.0 / std::max(d * d, 1e-24)) / inv_sum;
    }
    double total = 0.0;
    for (const auto& [j, w] : merged) total += w;
    std::vector<rig::Influence> next;
    for (const auto& [j, w] : merged) {
      if (w > 0.0) next.push_back({j, total > 0.0 ? w / total : 0.0});
    }
    if (next.empty()) next.push_back({near.front().second, 1.0});
    std::stable_sort(next.begin(), next.end(), [](const rig::Influence& a, const rig::Influence& b) {
      return a.weight > b.weight;
    });
    // glTF readers take four influences per vertex (JOINTS_0/WEIGHTS_0).
    if (next.size() > 4) {
      next.resize(4);
      double kept = 0.0;
      for (const auto& inf : next) kept += inf.weight;
      for (auto& inf : next) inf.weight /= kept;
    }
    out.skin.influences[v] = std::move(next);
    ++res.vertices_changed;
  }
  if (params.remove_joints) {
    if (Status s = rig::remove_joints(out, res.removed); !s.ok()) return s;
  }
  if (result) *result = std::move(res);
  return Status::Ok();
}

}  // namespace detect
