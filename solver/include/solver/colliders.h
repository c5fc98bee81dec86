// What a tail must not pass through (issue 46): collider shapes in world
// space, given with the hips per frame. A tapered capsule (a leg bone, the
// trunk) is the segment a..b with a radius at each end; a sphere is a
// capsule with a == b.
//
// Each link is tested as a segment (not only its tip) and continuously: a
// link's swing within one internal step is cut into pieces its tip covers in
// less than half the thinnest collider's radius, so no swing steps through a
// shin between two tests. A link touching a collider is turned about its
// head until it clears the surface by ChainParams::collider_margin (it keeps
// its length), its velocity into the surface removed and its sliding slowed
// by ChainParams::collider_friction.
#pragma once

#include <Eigen/Geometry>

#include <span>

namespace solver {

// At most this many colliders per frame; more are ignored (the state holds
// the previous frame's for interpolation without allocating).
inline constexpr int kMaxColliders = 16;

struct Capsule {
  Eigen::Vector3d a = Eigen::Vector3d::Zero();  // world, rig units
  Eigen::Vector3d b = Eigen::Vector3d::Zero();
  double radius_a = 0.0;  // rig units, at a
  double radius_b = 0.0;  // at b
};

// A collider the solver uses: every value finite, radii >= 0, coordinates
// and radii within kMaxColliderExtent rig units (the batch solver works in
// float). Others are ignored.
inline constexpr double kMaxColliderExtent = 1e9;
inline bool collider_usable(const Capsule& c) {
  // |x| <= bound is false for NaN; one pass with no early exit (the batch
  // solver checks every collider of every chain every frame).
  const double v[8] = {c.a.x(), c.a.y(), c.a.z(), c.b.x(), c.b.y(), c.b.z(), c.radius_a, c.radius_b};
  bool ok = c.radius_a >= 0.0 && c.radius_b >= 0.0;
  for (double x : v) ok &= (x <= kMaxColliderExtent) & (x >= -kMaxColliderExtent);
  return ok;
}

// One frame's input: the hips' world transform (rig units) and the colliders
// where they are at the end of the frame (rig units, world). The solver
// interpolates both across its internal steps from the previous frame's, so
// give the same colliders in the same order every frame (another count
// starts them where they are; so does a teleport). A collider that is not
// collider_usable() is ignored.
struct FrameInput {
  Eigen::Affine3d hips_world = Eigen::Affine3d::Identity();
  std::span<const Capsule> capsules;
};

}  // namespace solver
