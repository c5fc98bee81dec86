// The up axis of a file that declares none, read from its legs (internal to
// rig/).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rig/model/model.h"

namespace rig {

// A turn of a file's axes onto Y up, and the file axis the legs point along.
struct LegsDownTurn {
  Eigen::Matrix3d rotation;  // an exact axis permutation with signs, det +1
  std::string legs_along;    // "-Z", "+X"...: the file axis the legs point down
  bool by_name = true;       // the legs were named (else read from the shape)
};

// BVH (and an FBX without axis settings) declares no up axis, and
// tools write their own: Blender's BVH exporter writes Z up. The legs tell:
// in a bind pose they hang down. Each joint named a thigh (role_from_name)
// points to the nearest foot below it by name (else toe, else shin). When at
// least two legs are named, they decide: when they agree (their unit
// directions' mean is >= 0.9 long) and that mean lies within 25 deg of a
// model axis other than -Y, returns the turn taking that axis onto -Y (the
// shortest, about the axis perpendicular to both); nothing when they hang
// along -Y already or point between axes (a seated bind pose). With fewer
// named legs, the shape tells (assign_roles, which reads legs as chains
// reaching the floor with Y up): the file's frame is kept unless its shape
// finds fewer than two legs or legs more than ~45 deg off -Y; then the turn
// onto the one other axis whose shape legs agree and hang within 25 deg of
// -Y, if exactly one does. `positions` are the nodes' world positions in file
// space; `parents` gives each node's parent or -1 (parents first).
std::optional<LegsDownTurn> turn_legs_down(const std::vector<std::string>& names, const std::vector<int>& parents,
                                           const std::vector<Vec3>& positions);

}  // namespace rig
