// Which way a character faces in its bind space.
//
// glTF characters face +Z with their left on +X (Y up), and the role,
// retarget and limb code reason in that frame. Assets modelled along another
// horizontal axis are common (a quadruped built along X, a character turned
// to face -Z): they are read in that frame after a turn about Y.
//
// A facing within kFacingSnapDeg of a model axis is snapped to it, so the
// turn is an exact permutation of X and Z (an axis-aligned character's
// positions are turned without rounding; a glTF-facing one is untouched).
#pragma once

#include "rig/model/model.h"

namespace rig {

inline constexpr double kFacingSnapDeg = 20.0;

struct Facing {
  // Bind space -> canonical frame (forward +Z, left +X): a turn about Y.
  Eigen::Matrix3d to_canonical = Eigen::Matrix3d::Identity();
  bool canonical() const { return to_canonical == Eigen::Matrix3d::Identity(); }
  Vec3 forward() const { return to_canonical.transpose() * Vec3::UnitZ(); }  // bind space
  Vec3 left() const { return to_canonical.transpose() * Vec3::UnitX(); }     // bind space
};

// The facing whose left is this horizontal direction (bind space; its y is
// ignored). Canonical when the direction has no horizontal length.
Facing facing_with_left(const Vec3& left);

// Before roles: from the sides the joint names give (the left body joints'
// mean minus the right ones': the limbs' first bones where both sides name
// some), else from mirrored sibling limbs (the axis
// only: of its two signs the one nearer +X, `from_names` false; assign_roles
// then checks the sign against the toes and feet). Canonical when neither
// shows an axis. Names decide the sign here; assign_roles then overrules
// them only when two or more toes all point behind their feet (a rig that
// names its sides from the viewer's side): it is read facing the other way
// with its named sides swapped.
Facing facing_from_skeleton(const Skeleton& skeleton, bool* from_names = nullptr);

// After roles: the left body joints' mean minus the right ones' (the limbs'
// first bones where both sides have some). Canonical
// without sided roles (`found` false).
Facing facing_from_roles(const Skeleton& skeleton, bool* found = nullptr);

}  // namespace rig
