// Test helper: a character whose joints are named j<index>, its roles read
// again from the skeleton and skin alone (names that say nothing).
#pragma once

#include <string>

#include "rig/model/model.h"
#include "rig/anatomy/roles.h"

namespace rig::test {

inline Character renamed(const Character& in) {
  Character c = in;
  // Not "j" + std::to_string(j): GCC 12 at -O3 reports a false -Wrestrict there.
  for (int j = 0; j < c.skeleton.size(); ++j) c.skeleton.names[j] = std::string(1, 'j').append(std::to_string(j));
  assign_roles(c.skeleton, c.mesh, c.skin);
  return c;
}

}  // namespace rig::test
