#include "detect/rigid.h"

#include <cassert>

namespace detect {

rig::Character make_rigid(const rig::Character& in, const std::vector<int>& vertices, int joint) {
  assert(joint >= 0 && joint < in.skeleton.size());
  rig::Character out = in;
  for (int v : vertices) out.skin.influences[v] = {rig::Influence{joint, 1.0}};
  return out;
}

}  // namespace detect
