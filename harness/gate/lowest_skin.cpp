#include "harness/gate/lowest_skin.h"

namespace harness {

void PosedSkin::pose(std::span<const rig::Mat4> world) {
  const rig::Skeleton& sk = c_.skeleton;
  rig::skinning_heights(sk, world, rows_);
  skinning_.resize(world.size());
  // As rig::skin_positions' skinning matrices.
  for (size_t j = 0; j < world.size(); ++j) skinning_[j].matrix() = world[j] * sk.inverse_bind[j];
}

rig::LowestItem PosedSkin::lowest(const rig::LowestSkinIndex& index) {
  return rig::lowest_skinned(index, rows_, [](int) { return true; }, [this](int v) { return height(v); }, order_);
}

}  // namespace harness
