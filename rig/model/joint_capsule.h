// A tapered capsule that moves rigidly with one joint (issue 46): what a
// tail must stay out of. The character carries the ones it has
// (Character::colliders): fitted by `fix` (rig/anatomy/leg_capsules.h),
// stored in and read back from a glTF file's joint nodes
// (rig/io/gltf/gltf_colliders.h), used by the bake.
#pragma once

#include <Eigen/Geometry>

namespace rig {

struct JointCapsule {
  int joint = -1;                                // the bone it follows
  Eigen::Vector3d a = Eigen::Vector3d::Zero();   // bind space: one end of the axis
  Eigen::Vector3d b = Eigen::Vector3d::Zero();   // bind space: the other end
  double radius_a = 0.0;                         // model units, at a
  double radius_b = 0.0;                         // at b
};

}  // namespace rig
