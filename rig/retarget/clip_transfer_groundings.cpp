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
  return a.floor_y == b.floor_y && a.several_characters == b.several_characters && a.soles == b.soles &&
         a.arms == b.arms && a.elbows == b.elbows;
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
