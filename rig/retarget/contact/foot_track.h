// A leg's sole points followed through a clip (internal to limb contact):
// where each sole point is at every sample, and how high the lowest stands.
// Shared by contact detection (limb_contact.cpp) and the pinning pass
// (reconcile_limbs.cpp).
#pragma once

#include <span>
#include <vector>

#include "rig/retarget/contact/limb_contact.h"

namespace rig::foot_track {

struct FootTrack {
  FootReport report;
  std::vector<SolePoint> soles;
  // Per sole point: (joint, weight, point in that joint's frame); one entry
  // of weight 1 for a rigid point.
  struct Part {
    int joint;
    double weight;
    Vec3 local;
  };
  std::vector<std::vector<Part>> parts;
  std::vector<std::vector<Vec3>> traj;      // [sole point][sample], world
  // The joints the sole points hang from and their ancestors, ascending
  // (parents first): all that posing the sole points reads.
  std::vector<int> chain;
  Vec3 world(size_t i, const std::vector<Mat4>& wm) const {
    Vec3 p = Vec3::Zero();
    for (const Part& q : parts[i]) p += q.weight * (wm[q.joint] * q.local.homogeneous()).head<3>();
    return p;
  }
  // world(i, wm).y() alone (the y row of each product, summed in the
  // product's own order: the same bits).
  double height(size_t i, const std::vector<Mat4>& wm) const {
    double y = 0.0;
    for (const Part& q : parts[i]) {
      const Mat4& m = wm[q.joint];
      y += q.weight * (((m(1, 0) * q.local.x() + m(1, 1) * q.local.y()) + m(1, 2) * q.local.z()) + m(1, 3));
    }
    return y;
  }
};

// Thigh to shin plus shin to foot, bind pose.
double leg_length_of(const Skeleton& sk, const Leg& leg);

// The lowest sole point's height above floor_y under the pose `wm`.
double lowest_sole(const FootTrack& f, const std::vector<Mat4>& wm, double floor_y);

// lowest_sole under the pose of `locals`, posing only f.chain (each joint
// as local_to_world poses it, so the same bits); `scratch` holds one matrix
// per joint (only f.chain's are written).
double lowest_sole(const FootTrack& f, const Skeleton& sk, std::span<const Transform> locals,
                   std::vector<Mat4>& scratch, double floor_y);

// Sole point trajectories and clearances of every leg under the given poses.
std::vector<FootTrack> track_feet(const Skeleton& sk, const std::vector<Leg>& legs,
                                  const std::vector<std::vector<Mat4>>& world, const LimbContactOptions& opt);

// World matrices of the clip at each time (and the local poses, if asked).
std::vector<std::vector<Mat4>> poses(const Skeleton& sk, const Clip& clip, std::span<const double> times,
                                     std::vector<std::vector<Transform>>* locals_out);

}  // namespace rig::foot_track
