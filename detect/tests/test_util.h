// Tiny hand-built skeletons and meshes for detect tests.
#pragma once

#include <string>
#include <vector>

#include "rig/model.h"

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

}  // namespace detect_test
