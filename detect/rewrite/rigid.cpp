#include "detect/rewrite/rigid.h"

#include <cassert>
#include <utility>

namespace detect {

rig::Character make_rigid(rig::Character in, const std::vector<int>& vertices, int joint) {
  assert(joint >= 0 && joint < in.skeleton.size());
  rig::Character out = std::move(in);
  for (int v : vertices) out.skin.influences[v] = {rig::Influence{joint, 1.0}};
  return out;
}

}  // namespace detect
