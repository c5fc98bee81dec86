// Assigning body roles (rig/model/role.h) to skeleton joints, from names
// and the skeleton's shape together.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rig/anatomy/role_names.h"
#include "rig/model/role.h"

namespace rig {


struct Skeleton;
struct Mesh;
struct Skin;
// Fills skeleton.roles from the skeleton's shape and names together (Y up,
// bind pose):
// - limbs are lateral chains branching off the centre line; a limb whose
//   lowest point (joints, and the skin it dominates when a mesh is given)
//   reaches the floor is a leg, others are arms; a leg whose chain ends in
//   a leaf joint adopts a "detached" foot hanging elsewhere in the tree
//   (e.g. under the root, like an IK target) just below its end;
// - with two legs per side, the pair attached toward the head is the front
//   pair (Role::front);
// - the pelvis (kHips, exactly one) is the lowest common ancestor of the
//   hind legs and the head; the spine runs from it to the head;
// - names (`role_from_name`) pick which joint of a chain is the thigh or the
//   upper arm and give the side (a limb without a sided name takes the side
//   it lies on); a rig named from the viewer's side (two or more toes, all
//   pointing behind their feet the names' way) reads facing the other way,
//   each named side swapped; names never make a leg of a chain that does
//   not reach the floor, and helper/prop names (IK, pole, target, weapon,
//   tail, ear, fingers...) and their descendants never get a body role.
// Contract: every leg has exactly one kThigh joint; arms have kUpperArm.
// When the shape gives no legs, names alone decide (then a geometric
// fallback for meaningless names). All lengths relative to the model height.
void assign_roles(Skeleton& skeleton);
// Same, with the bind mesh and skin telling how low each limb's skin reaches.
void assign_roles(Skeleton& skeleton, const Mesh& mesh, const Skin& skin);

// Number of legs (joints with part kThigh).
int leg_count(const Skeleton& skeleton);


// The joint whose role is hips (assign_roles keeps at most one), or -1.
int hips_joint(const Skeleton& skeleton);

}  // namespace rig
