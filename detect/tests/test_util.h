// Tiny hand-built skeletons and meshes for detect tests.
#pragma once

#include <string>
#include <vector>

#include "rig/model/model.h"

namespace detect_test {

inline rig::Mat4 translation(const rig::Vec3& t) {
  rig::Mat4 m = rig::Mat4::Identity();
  m.block<3, 1>(0, 3) = t;
  return m;
}

// Skeleton from joint positions and parents (bind rotation identity).
inline rig::Skeleton make_skeleton(const std::vector<std::string>& names,
                                   const std::vector<int>& parents,
                                   const std::vector<rig::Vec3>& positions,
                                   const std::vector<rig::Role>& roles = {}) {
  rig::Skeleton s;
  s.names = names;
  s.parents = parents;
  s.roles = roles.empty() ? std::vector<rig::Role>(names.size()) : roles;
  for (size_t i = 0; i < names.size(); ++i) {
    s.bind_world.push_back(translation(positions[i]));
    s.inverse_bind.push_back(translation(-positions[i]));
    rig::Transform t;
    t.translation = parents[i] >= 0 ? rig::Vec3(positions[i] - positions[parents[i]]) : positions[i];
    s.neutral_local.push_back(t);
    s.stored_local.push_back(t);
    s.root_parent_world.push_back(rig::Mat4::Identity());
  }
  return s;
}

// Appends a joint at bind world `world` under `parent` (-1: a root), role
// none, stored pose = bind; returns its index.
inline int append_joint(rig::Skeleton& sk, const std::string& name, int parent, const rig::Mat4& world) {
  if (sk.roles.size() == sk.names.size()) sk.roles.emplace_back();
  sk.names.push_back(name);
  sk.parents.push_back(parent);
  sk.bind_world.push_back(world);
  sk.inverse_bind.push_back(world.inverse());
  sk.root_parent_world.push_back(rig::Mat4::Identity());
  const rig::Transform local =
      rig::Transform::from_matrix(parent >= 0 ? rig::Mat4(sk.bind_world[parent].inverse() * world) : world);
  sk.neutral_local.push_back(local);
  sk.stored_local.push_back(local);
  return sk.size() - 1;
}

}  // namespace detect_test
