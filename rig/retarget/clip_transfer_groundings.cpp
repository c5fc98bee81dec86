// transfer_clip_groundings (clip_transfer.h): one posed clip for several
// groundings.
#include <algorithm>
#include <optional>

#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/clip_transfer_stages.h"

namespace rig {

using transfer_detail::check_transfer_inputs;
using transfer_detail::finish_clip;
using transfer_detail::pose_clip;
using transfer_detail::PosedClip;

namespace {

// What pose_clip reads of a support: equal in two supports, the same posed
// clip serves both.
bool same_pose_inputs(const TargetSupport& a, const TargetSupport& b) {
  const auto same_influences = [](const std::vector<Influence>& x, const std::vector<Influence>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                      [](const Influence& i, const Influence& j) { return i.joint == j.joint && i.weight == j.weight; });
  };
  const auto same_soles = [&](const std::vector<SolePoint>& x, const std::vector<SolePoint>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [&](const SolePoint& i, const SolePoint& j) {
      return i.joint == j.joint && i.bind_position == j.bind_position && same_influences(i.influences, j.influences);
    });
  };
  const auto same_arm = [](const ArmSkin& x, const ArmSkin& y) {
    return x.upper_arm == y.upper_arm && x.other_upper_arm == y.other_upper_arm && x.vertices == y.vertices;
  };
  const auto same_elbow = [](const ElbowSkin& x, const ElbowSkin& y) {
    return x.forearm == y.forearm && x.vertices == y.vertices && x.edges == y.edges && x.bind_length == y.bind_length;
  };
  return a.floor_y == b.floor_y && a.several_characters == b.several_characters &&
         std::equal(a.soles.begin(), a.soles.end(), b.soles.begin(), b.soles.end(), same_soles) &&
         std::equal(a.arms.begin(), a.arms.end(), b.arms.begin(), b.arms.end(), same_arm) &&
         std::equal(a.elbows.begin(), a.elbows.end(), b.elbows.begin(), b.elbows.end(), same_elbow);
}

}  // namespace

std::vector<TransferResult> transfer_clip_groundings(const Character& source, const Clip& clip,
                                                     const Calibration& source_cal, const Character& target,
                                                     const Calibration& target_cal,
                                                     std::span<const TargetSupport* const> prepared,
                                                     std::span<const GroundingOptions> groundings,
                                                     const TransferOptions& opt) {
  std::vector<TransferResult> out;
  std::optional<PosedClip> posed;  // pose_clip's, on *prepared[first]
  size_t first = 0;
  for (size_t i = 0; i < prepared.size() && i < groundings.size(); ++i) {
    TransferOptions o = opt;
    o.grounding = groundings[i];
    // Shared when pose_clip would read the same (its inputs checked for this
    // support too, as transfer_clip checks them).
    if (!posed || !same_pose_inputs(*prepared[first], *prepared[i]) ||
        !check_transfer_inputs(source, source_cal, target, target_cal, *prepared[i], o).ok()) {
      bool done = false;
      PosedClip p = pose_clip(source, clip, source_cal, target, target_cal, *prepared[i], o, done);
      if (done) {
        out.push_back(std::move(p.r));
        continue;
      }
      posed = std::move(p);
      first = i;
    }
    out.push_back(finish_clip(*posed, target, target_cal, *prepared[i], o));
  }
  return out;
}

}  // namespace rig
