// rig-internal: transfer_clip in two stages (clip_transfer.cpp), so that
// transfer_clip_groundings (clip_transfer_groundings.cpp) runs the first
// once for several groundings.
#pragma once

#include "rig/retarget/clip_transfer.h"

namespace rig::transfer_detail {

// The clip retargeted, floor-aligned, its phases to pin found, elbows and
// arms kept clear: everything transfer_clip does before body grounding. It
// reads no TransferOptions::grounding and, of the support, only its floor,
// soles, arm and elbow skin (and check_transfer_inputs' checks).
struct PosedClip {
  TransferResult r;       // status, diagnostics, times, start_time, floor_y and alignment so far
  Clip out;
  LimbContactOptions lo;  // with the phases to pin and the sole points
  bool phases_from_source = false;
};

// transfer_clip's checks of its inputs: why this clip cannot go onto this
// target with this support, or ok.
Status check_transfer_inputs(const Character& source, const Calibration& source_cal, const Character& target,
                             const Calibration& target_cal, const TargetSupport& prepared, const TransferOptions& opt);

// The steps before body grounding. `done`: r is the whole result already
// (an error, or the clip copied as authored).
PosedClip pose_clip(const Character& source, const Clip& clip, const Calibration& source_cal, const Character& target,
                    const Calibration& target_cal, const TargetSupport& prepared, const TransferOptions& opt,
                    bool& done);

// The steps from body grounding on, for opt.grounding and `prepared` (whose
// floor, soles, arm and elbow skin are those pose_clip read).
TransferResult finish_clip(PosedClip p, const Character& target, const Calibration& target_cal,
                           const TargetSupport& prepared, const TransferOptions& opt);

}  // namespace rig::transfer_detail
