#include "rig/clip_transfer.h"

#include <algorithm>
#include <limits>

#include "rig/pose.h"

namespace rig {
namespace {

Vec3 position(const Mat4& m) { return m.block<3, 1>(0, 3); }

// The retargeted clip's key times: the longest track's (retarget samples
// every animated track at the same times).
std::vector<double> key_times(const Clip& clip) {
  const std::vector<double>* best = nullptr;
  for (const JointTracks& jt : clip.tracks) {
    for (const std::vector<double>* t : {&jt.rotation.times, &jt.translation.times})
      if (!best || t->size() > best->size()) best = t;
  }
  return best ? *best : std::vector<double>{};
}

}  // namespace

double reference_floor(const Character& ch, const GroundingOptions& opt) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double floor = kInf;
  if (ch.has_skin()) {
    const SupportPoints s = sample_support(ch, opt);
    for (size_t i = 0; i < s.vertices.size(); ++i) {
      if (s.tail[i] && !opt.count_tail) continue;
      floor = std::min(floor, ch.mesh.positions[s.vertices[i]].y());
    }
    if (floor < kInf) return floor;
  }
  const Skeleton& sk = ch.skeleton;
  for (int j = 0; j < sk.size() && j < static_cast<int>(sk.roles.size()); ++j)
    if (sk.roles[j].part == BodyPart::kFoot || sk.roles[j].part == BodyPart::kToe)
      floor = std::min(floor, position(sk.bind_world[j]).y());
  if (floor < kInf) return floor;
  for (int j = 0; j < sk.size(); ++j) floor = std::min(floor, position(sk.bind_world[j]).y());
  return floor < kInf ? floor : 0.0;
}

TransferResult transfer_clip(const Character& source, const Clip& clip, const Calibration& source_cal,
                             const Character& target, const Calibration& target_cal, const TransferOptions& opt) {
  TransferResult r;
  auto fail = [&](Status::Code code, std::string message) {
    r.status = Status::Error(code, std::move(message));
    r.clip = Clip{};
    return r;
  };
  if (source.skeleton.size() != source_cal.size() || target.skeleton.size() != target_cal.size())
    return fail(Status::Code::kBadData, "transfer: calibration does not match its skeleton");
  if (!(opt.sample_rate > 0)) return fail(Status::Code::kBadData, "transfer: sample rate must be positive");
  if (source_cal.hips < 0 || target_cal.hips < 0)
    return fail(Status::Code::kBadData,
                std::string("transfer: no hips joint on the ") + (source_cal.hips < 0 ? "source" : "target"));
  if (map_joints_by_role(source_cal, target_cal).size() < 2)
    return fail(Status::Code::kBadData, "transfer: source and target share no body roles besides the hips");

  Clip out = retarget(source, clip, source_cal, target_cal, target.skeleton, opt.sample_rate);
  if (out.tracks.empty()) return fail(Status::Code::kBadData, "transfer: retargeting gave no tracks");
  r.times = key_times(out);
  const int n = static_cast<int>(r.times.size());
  r.floor_y = reference_floor(target, opt.grounding);
  r.lift.assign(n, 0.0);

  // Body grounding: raise the hips' world y by the smoothed lift.
  const Skeleton& sk = target.skeleton;
  const int hips = target_cal.hips;
  if (opt.ground_body && target.has_skin()) {
    r.lift = ground_lift(target, out, r.times, opt.grounding);
    auto it = std::find_if(out.tracks.begin(), out.tracks.end(), [&](const JointTracks& jt) { return jt.joint == hips; });
    if (it == out.tracks.end()) return fail(Status::Code::kBadData, "transfer: retargeted clip has no hips track");
    Track<Vec3>& tr = it->translation;
    if (tr.times != r.times) {  // constant hips (no source hips motion): key it
      std::vector<Vec3> values;
      for (double t : r.times) values.push_back(tr.empty() ? sk.neutral_local[hips].translation : sample(tr, t));
      tr.times = r.times;
      tr.values = values;
      tr.interpolation = Interpolation::kLinear;
    }
    for (int k = 0; k < n; ++k) {
      if (r.lift[k] == 0.0) continue;
      const int p = sk.parents[hips];
      Mat4 parent = p < 0 ? sk.root_parent_world[hips] : Mat4::Identity();
      if (p >= 0) parent = pose_at(sk, out, r.times[k])[p];
      // World +y of `lift` expressed in the parent's frame.
      tr.values[k] += parent.block<3, 3>(0, 0).inverse() * Vec3(0, r.lift[k], 0);
    }
  }

  if (opt.reconcile_limbs) {
    LimbContactOptions lo = opt.limbs;
    lo.floor_y = r.floor_y;
    const std::vector<Leg> legs = find_legs(sk);
    lo.sole_points.clear();
    for (const Leg& leg : legs)
      lo.sole_points.push_back(target.has_skin() ? mesh_sole_points(target, leg, r.floor_y, opt.sole_points_per_joint)
                                                 : joint_sole_points(sk, leg, r.floor_y));
    LimbContactResult lr = reconcile_limbs(sk, out, r.times, lo);
    if (lr.status.ok()) {
      out = std::move(lr.clip);
      r.feet = std::move(lr.feet);
    } else {
      r.limbs_note = lr.status.message;
    }
  }
  r.clip = std::move(out);
  return r;
}

}  // namespace rig
