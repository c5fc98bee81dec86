// Contact phases of the legs: when a sole point stands on the floor (low
// and still), on the clip's floor or on its own (the pinning pass is in
// reconcile_limbs.cpp, legs and their sole points in leg_soles.cpp).
#include "rig/retarget/contact/limb_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rig/anatomy/leg_geometry.h"
#include "rig/retarget/contact/foot_track.h"
#include "rig/retarget/in_place.h"
#include "rig/model/pose.h"
#include "rig/anatomy/roles.h"  // hips_joint

namespace rig {
namespace {

using foot_track::FootTrack;
using foot_track::poses;
using foot_track::track_feet;
using leg_geometry::position;

// Horizontal speed of one sole point at sample k (central difference).
double horizontal_speed(std::span<const double> times, const std::vector<Vec3>& traj, int k) {
  const int n = static_cast<int>(times.size());
  const int k0 = std::max(0, k - 1), k1 = std::min(n - 1, k + 1);
  const double dt = times[k1] - times[k0];
  Vec3 step = traj[k1] - traj[k0];
  step.y() = 0.0;
  return dt > 0 ? step.norm() / dt : 0.0;
}

// Lowest height above floor_y of a sole point while it is still (horizontal
// speed within the contact test's, at two samples in a row; the higher of
// the two); +inf when no point is ever still.
double lowest_still_height(std::span<const double> times, const std::vector<std::vector<Vec3>>& points,
                           double floor_y, double leg_length, const ContactOptions& opt) {
  const int n = static_cast<int>(times.size());
  const double max_v = opt.max_speed * leg_length;
  double low = std::numeric_limits<double>::infinity();
  for (const auto& traj : points) {
    if (static_cast<int>(traj.size()) != n) continue;
    // Still at two samples in a row: one slow sample (a landing's turn
    // point) is no rest. Each sample's speed is computed once.
    bool still = n > 0 && horizontal_speed(times, traj, 0) <= max_v;
    for (int k = 0; k + 1 < n; ++k) {
      const bool next_still = horizontal_speed(times, traj, k + 1) <= max_v;
      if (still && next_still) low = std::min(low, std::max(traj[k].y(), traj[k + 1].y()) - floor_y);
      still = next_still;
    }
  }
  return low;
}

}  // namespace

std::vector<ContactPhase> detect_contact_phases(std::span<const double> times,
                                                const std::vector<std::vector<Vec3>>& points, double floor_y,
                                                double leg_length, const ContactOptions& opt) {
  const int n = static_cast<int>(times.size());
  std::vector<char> contact(n, 0);
  const double max_h = opt.max_height * leg_length, max_v = opt.max_speed * leg_length;
  for (const auto& traj : points) {
    if (static_cast<int>(traj.size()) != n) continue;
    for (int k = 0; k < n; ++k) {
      const double h = traj[k].y() - floor_y;
      // Under the floor is contact whatever the speed: the sole is in the
      // ground (a landing or toe-off the stillness test would miss). The
      // speed only where the height allows contact (a swinging foot is
      // above it at most samples).
      if ((h < 0 && opt.under_floor_is_contact) || (h <= max_h && horizontal_speed(times, traj, k) <= max_v))
        contact[k] = 1;
    }
  }
  std::vector<ContactPhase> runs;
  for (int k = 0; k < n; ++k) {
    if (!contact[k]) continue;
    if (!runs.empty() && runs.back().last == k - 1) runs.back().last = k;
    else runs.push_back({k, k});
  }
  std::vector<ContactPhase> merged;
  for (const ContactPhase& r : runs) {
    if (!merged.empty() && times[r.first] - times[merged.back().last] <= opt.max_gap + 1e-12)
      merged.back().last = r.last;
    else merged.push_back(r);
  }
  // Short runs are dropped, except at the clip's first or last sample: those
  // are cut by the clip (a foot still standing when the clip ends).
  std::vector<ContactPhase> out;
  for (const ContactPhase& p : merged)
    if (times[p.last] - times[p.first] >= opt.min_duration - 1e-12 || p.first == 0 || p.last == n - 1)
      out.push_back(p);
  return out;
}


std::vector<double> stance_clearances(const Skeleton& sk, const Clip& clip, std::span<const double> times,
                                      const LimbContactOptions& opt) {
  std::vector<double> out;
  const std::vector<Leg> legs = find_legs(sk);
  if (legs.empty() || times.empty() || !std::is_sorted(times.begin(), times.end())) return out;
  const auto world = poses(sk, clip, times, nullptr);
  for (const FootTrack& f : track_feet(sk, legs, world, opt)) {
    const double own_floor =
        opt.floor_y + *std::min_element(f.report.clearance_before.begin(), f.report.clearance_before.end());
    for (const ContactPhase& ph : detect_contact_phases(times, f.traj, own_floor, f.report.leg_length, opt.contact))
      for (int k = ph.first; k <= ph.last; ++k) out.push_back(f.report.clearance_before[k]);
  }
  return out;
}

std::vector<std::vector<ContactPhase>> detect_leg_contacts(const Skeleton& sk, const Clip& clip,
                                                           std::span<const double> times,
                                                           const LimbContactOptions& opt) {
  std::vector<std::vector<ContactPhase>> out;
  const std::vector<Leg> legs = find_legs(sk);
  if (legs.empty() || times.empty() || !std::is_sorted(times.begin(), times.end())) return out;
  const auto world = poses(sk, clip, times, nullptr);
  for (const FootTrack& f : track_feet(sk, legs, world, opt))
    out.push_back(detect_contact_phases(times, f.traj, opt.floor_y, f.report.leg_length, opt.contact));
  return out;
}

std::vector<std::vector<double>> sole_clearances(const Skeleton& sk, const Clip& clip, std::span<const double> times,
                                                 const LimbContactOptions& opt) {
  std::vector<std::vector<double>> out;
  const std::vector<Leg> legs = find_legs(sk);
  if (legs.empty() || times.empty() || !std::is_sorted(times.begin(), times.end())) return out;
  for (FootTrack& f : track_feet(sk, legs, poses(sk, clip, times, nullptr), opt))
    out.push_back(std::move(f.report.clearance_before));
  return out;
}

std::vector<std::vector<ContactPhase>> detect_own_floor_contacts(const Skeleton& sk, const Clip& clip,
                                                                 std::span<const double> times,
                                                                 const LimbContactOptions& opt) {
  std::vector<std::vector<ContactPhase>> out;
  const std::vector<Leg> legs = find_legs(sk);
  if (legs.empty() || times.empty() || !std::is_sorted(times.begin(), times.end())) return out;
  const std::vector<std::vector<Mat4>> world = poses(sk, clip, times, nullptr);
  const std::vector<FootTrack> feet = track_feet(sk, legs, world, opt);
  ContactOptions resting = opt.contact;
  resting.under_floor_is_contact = false;  // a sole under its resting floor is dipping, not standing
  {
    // In place, a standing sole slides: low is standing, whatever its speed.
    std::vector<const std::vector<Vec3>*> soles;
    double leg_length = 0.0;
    for (const FootTrack& f : feet) {
      for (const auto& traj : f.traj) soles.push_back(&traj);
      leg_length += f.report.leg_length / static_cast<double>(feet.size());
    }
    const int hips = hips_joint(sk);
    std::vector<Vec3> hips_at;
    for (const auto& wm : world) hips_at.push_back(position(wm[hips >= 0 ? hips : legs.front().thigh]));
    if (walks_in_place(times, soles, hips_at, leg_length)) {
      resting.max_speed = std::numeric_limits<double>::infinity();
      resting.max_height = std::min(resting.max_height, resting.in_place_max_height);
    }
  }
  // The floor is the lowest level a sole point rests at: a toe that bends or
  // slides under it while moving (a crouch, a landing) is not standing, and
  // taking its dip for the floor would lift the floor off the real stands.
  double low = std::numeric_limits<double>::infinity(), dip = low;
  for (const FootTrack& f : feet) {
    low = std::min(low, lowest_still_height(times, f.traj, opt.floor_y, f.report.leg_length, resting));
    for (double c : f.report.clearance_before) dip = std::min(dip, c);
  }
  if (!std::isfinite(low)) low = dip;  // no sole ever still: the lowest one
  if (!std::isfinite(low)) return out;
  for (const FootTrack& f : feet)
    out.push_back(detect_contact_phases(times, f.traj, opt.floor_y + low, f.report.leg_length, resting));
  return out;
}

std::vector<bool> contact_mask(const std::vector<ContactPhase>& phases, int n) {
  std::vector<bool> mask(static_cast<size_t>(std::max(0, n)), false);
  for (const ContactPhase& ph : phases)
    for (int k = std::max(0, ph.first); k <= std::min(ph.last, n - 1); ++k) mask[static_cast<size_t>(k)] = true;
  return mask;
}

}  // namespace rig
