// The legs' colliders of a fixed character (see leg_colliders.h).
#include "pipeline/leg_colliders.h"

#include "rig/anatomy/leg_capsules.h"
#include "solver/chain.h"

namespace pipeline {

std::vector<char> tail_skin(const rig::Character& c, std::span<const std::vector<int>> regions,
                            std::span<const char> tail_joints) {
  const size_t nv = static_cast<size_t>(c.mesh.vertex_count());
  std::vector<char> out(nv, 0);
  for (const std::vector<int>& r : regions)
    for (int v : r)
      if (v >= 0 && static_cast<size_t>(v) < nv) out[static_cast<size_t>(v)] = 1;
  if (!tail_joints.empty())
    for (size_t v = 0; v < nv && v < c.skin.influences.size(); ++v)
      for (const rig::Influence& in : c.skin.influences[v])
        if (in.weight > 0 && in.joint >= 0 && static_cast<size_t>(in.joint) < tail_joints.size() &&
            tail_joints[static_cast<size_t>(in.joint)])
          out[v] = 1;
  return out;
}

std::vector<char> tail_joints(const rig::Skeleton& sk) {
  std::vector<char> out(static_cast<size_t>(sk.size()), 0);
  for (size_t j = 0; j < out.size(); ++j) {  // parents first
    const int parent = sk.parents[j];
    out[j] = solver::parse_tail_name(sk.names[j], nullptr) >= 0 || (parent >= 0 && out[static_cast<size_t>(parent)]);
  }
  return out;
}

std::vector<rig::JointCapsule> fit_leg_colliders(const rig::Character& c, std::span<const char> exclude) {
  return rig::fit_leg_capsules(c, exclude);
}

nlohmann::json colliders_json(const rig::Character& c, const std::string& source) {
  const double mpu = c.meters_per_unit > 0 ? c.meters_per_unit : 1.0;
  nlohmann::json caps = nlohmann::json::array();
  auto metres = [&](const rig::Vec3& p) { return std::vector<double>{p.x() * mpu, p.y() * mpu, p.z() * mpu}; };
  for (const rig::JointCapsule& k : c.colliders) {
    if (k.joint < 0 || k.joint >= c.skeleton.size()) continue;
    caps.push_back({{"joint", c.skeleton.names[static_cast<size_t>(k.joint)]},
                    {"a_m", metres(k.a)},
                    {"b_m", metres(k.b)},
                    {"radius_a_m", k.radius_a * mpu},
                    {"radius_b_m", k.radius_b * mpu}});
  }
  return {{"count", caps.size()}, {"source", source}, {"capsules", caps}};
}

std::string colliders_line(const rig::Character& c, const std::string& source) {
  if (c.colliders.empty()) return "";
  std::string joints;
  for (const rig::JointCapsule& k : c.colliders)
    if (k.joint >= 0 && k.joint < c.skeleton.size())
      joints += (joints.empty() ? "" : ", ") + c.skeleton.names[static_cast<size_t>(k.joint)];
  const size_t n = c.colliders.size();
  return "leg colliders: " + std::to_string(n) + " capsule" + (n == 1 ? "" : "s") + " on " + joints + " (" + source +
         ")";
}

}  // namespace pipeline
