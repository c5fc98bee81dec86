// Internal: bone roles from the skeleton's shape (roles_shape.cpp), names
// alone (roles.cpp). Public entry point: rig::assign_roles (rig/roles.h).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "rig/model/model.h"

namespace rig {

// Per joint: the lowest bind y of the skin it dominates (+inf without any).
std::vector<double> skin_low_per_joint(const Skeleton& skeleton, const Mesh& mesh, const Skin& skin);

// Roles from shape and names together; false (roles untouched) when the
// shape shows no leg, so the caller falls back to names. Both read the
// skeleton in the canonical frame (facing +Z, left +X): rig::assign_roles
// turns it there first (rig/facing.h).
// `skin_low`: per joint lowest dominated skin y, or empty (skeleton only).
// `mirror_named_sides`: the rig names its sides from the viewer's side, so a
// side read from a name is the other one; sides read from positions are not
// touched.
bool assign_roles_by_shape(Skeleton& skeleton, std::span<const double> skin_low, bool mirror_named_sides);

// Names first, then a geometric fallback for meaningless names.
void assign_roles_by_name(Skeleton& skeleton, bool mirror_named_sides);


}  // namespace rig
