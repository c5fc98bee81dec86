// The lowest of a set of vertices as rig::skin_positions places them, found
// by rig::lowest_skinned's bind bounds: at a pose only the parts that can
// hold the lowest vertex are skinned, each vertex with skin_positions' own
// arithmetic (an affine skinning matrix per joint, weighted sum), so the
// height and the vertex are those a scan of every skinned vertex gives, bit
// for bit (the first vertex of the list among equal heights). Floor checks
// of the gate ask it at every key of a clip.
#pragma once

#include <Eigen/Geometry>

#include <span>
#include <utility>
#include <vector>

#include "rig/model/lowest_skin.h"
#include "rig/model/model.h"

namespace harness {

// One pose's skinning, shared by every search at that pose.
class PosedSkin {
 public:
  explicit PosedSkin(const rig::Character& c) : c_(c) {}
  // Sets the pose (world matrices of every joint).
  void pose(std::span<const rig::Mat4> world);
  // Vertex v's height as rig::skin_positions computes it.
  double height(int v) const {
    const rig::Vec3& p = c_.mesh.positions[static_cast<size_t>(v)];
    const std::vector<rig::Influence>& infl = c_.skin.influences[static_cast<size_t>(v)];
    if (infl.empty()) return p.y();
    rig::Vec3 acc = rig::Vec3::Zero();
    for (const rig::Influence& in : infl) acc += in.weight * (skinning_[static_cast<size_t>(in.joint)] * p);
    return acc.y();
  }
  // The lowest vertex of `index`'s list at this pose (y, position in the
  // list; item -1 and +infinity for an empty list).
  rig::LowestItem lowest(const rig::LowestSkinIndex& index);

 private:
  const rig::Character& c_;
  std::vector<Eigen::Affine3d> skinning_;
  std::vector<Eigen::RowVector4d> rows_;  // the y row of each skinning matrix (the bounds)
  std::vector<std::pair<double, int>> order_;  // scratch of lowest_skinned
};

}  // namespace harness
