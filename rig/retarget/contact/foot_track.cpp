#include "rig/retarget/contact/foot_track.h"

#include <algorithm>
#include <limits>

#include "rig/anatomy/leg_geometry.h"
#include "rig/model/pose.h"

namespace rig::foot_track {

using leg_geometry::position;

double leg_length_of(const Skeleton& sk, const Leg& leg) {
  return (position(sk.bind_world[leg.shin]) - position(sk.bind_world[leg.thigh])).norm() +
         (position(sk.bind_world[leg.foot]) - position(sk.bind_world[leg.shin])).norm();
}

double lowest_sole(const FootTrack& f, const std::vector<Mat4>& wm, double floor_y) {
  double low = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < f.soles.size(); ++i) low = std::min(low, f.height(i, wm));
  return low - floor_y;
}

double lowest_sole(const FootTrack& f, const Skeleton& sk, std::span<const Transform> locals,
                   std::vector<Mat4>& scratch, double floor_y) {
  scratch.resize(static_cast<size_t>(sk.size()));
  for (int i : f.chain) {
    const int p = sk.parents[i];
    const Mat4& parent = p < 0 ? sk.root_parent_world[i] : scratch[p];
    scratch[i] = parent * locals[i].matrix();
  }
  return lowest_sole(f, scratch, floor_y);
}

std::vector<FootTrack> track_feet(const Skeleton& sk, const std::vector<Leg>& legs,
                                  const std::vector<std::vector<Mat4>>& world, const LimbContactOptions& opt) {
  const int n = static_cast<int>(world.size());
  std::vector<FootTrack> feet(legs.size());
  for (size_t li = 0; li < legs.size(); ++li) {
    FootTrack& f = feet[li];
    f.report.leg = legs[li];
    f.report.leg_length = leg_length_of(sk, legs[li]);
    f.soles = li < opt.sole_points.size() && !opt.sole_points[li].empty() ? opt.sole_points[li]
                                                                         : joint_sole_points(sk, legs[li], opt.floor_y);
    for (const SolePoint& p : f.soles) {
      std::vector<FootTrack::Part> parts;
      double sum = 0;
      for (const Influence& in : p.influences)
        if (in.joint >= 0 && in.joint < sk.size() && in.weight > 0) sum += in.weight;
      for (const Influence& in : p.influences)
        if (in.joint >= 0 && in.joint < sk.size() && in.weight > 0)
          parts.push_back({in.joint, in.weight / sum,
                           (sk.inverse_bind[in.joint] * p.bind_position.homogeneous()).head<3>()});
      if (parts.empty())
        parts.push_back({p.joint, 1.0, (sk.inverse_bind[p.joint] * p.bind_position.homogeneous()).head<3>()});
      f.parts.push_back(std::move(parts));
    }
    std::vector<char> in_chain(static_cast<size_t>(sk.size()), 0);
    for (const std::vector<FootTrack::Part>& parts : f.parts)
      for (const FootTrack::Part& q : parts)
        for (int j = q.joint; j >= 0 && !in_chain[j]; j = sk.parents[j]) in_chain[j] = 1;
    for (int j = 0; j < sk.size(); ++j)
      if (in_chain[j]) f.chain.push_back(j);
    f.traj.assign(f.soles.size(), std::vector<Vec3>(n));
    // The lowest of the trajectory's points: lowest_sole's numbers, each
    // point posed once.
    f.report.clearance_before.reserve(n);
    for (int k = 0; k < n; ++k) {
      double low = std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < f.soles.size(); ++i) {
        f.traj[i][k] = f.world(i, world[k]);
        low = std::min(low, f.traj[i][k].y());
      }
      f.report.clearance_before.push_back(low - opt.floor_y);
    }
  }
  return feet;
}

std::vector<std::vector<Mat4>> poses(const Skeleton& sk, const Clip& clip, std::span<const double> times,
                                     std::vector<std::vector<Transform>>* locals_out) {
  std::vector<std::vector<Mat4>> world(times.size());
  std::vector<Transform> locals;
  for (size_t k = 0; k < times.size(); ++k) {
    locals = sk.neutral_local;
    apply_clip(clip, times[k], locals);
    world[k] = local_to_world(sk, locals);
    if (locals_out) locals_out->push_back(locals);
  }
  return world;
}

}  // namespace rig::foot_track
