// Reading the skin by joint: which joint dominates a vertex, the vertices
// each joint dominates, and which joints are a tail's or a carried prop's
// (by role, name and shape). Shared by roles, grounding, clearance and detect.
#pragma once

#include <span>
#include <vector>

#include "rig/model/model.h"

namespace rig {

// Per joint: a tail bone, or exactly the caller's set when given. A tail
// bone has role none and a "tail" name token, or is a role-none descendant
// of one, or lies on a chain of at least two role-none joints hanging from
// the hips (through role-none joints only) with no body bone below it: the
// names help, the shape decides too (a tail exported as Bone.012).
std::vector<bool> tail_joint_mask(const Skeleton& skeleton, std::span<const int> explicit_tail = {});

// Per joint: a prop or accessory bone (a `Weapon` under a hand, a hat under
// the head): role none, not a tail bone, and its nearest ancestor with a body
// role is an arm part (shoulder, upper arm, forearm, hand), the neck or the
// head. Skin it dominates never enters S: a sword must not lift the body.
std::vector<bool> prop_joint_mask(const Skeleton& skeleton);

// The joint with the largest weight (ties: the lower index), -1 if none.
// Support points are grouped by it; T is the points whose dominant joint is a
// tail bone.
int dominant_joint(std::span<const Influence> influences);

// The mesh's vertices grouped by dominant joint, ascending within a joint
// (vertices with no influence in no group). Built once per character, so
// support and sole sampling for every clip never rescan the mesh.
struct SkinGroups {
  std::vector<int> start;     // joint count + 1 offsets into `vertices`
  std::vector<int> vertices;  // joint j's: vertices[start[j], start[j + 1])
  // Joint j's vertices; empty for a joint out of range.
  std::span<const int> of(int joint) const;
};
SkinGroups group_by_dominant_joint(const Character& character);

}  // namespace rig
