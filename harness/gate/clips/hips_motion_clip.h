// A clip with fast hips motion laid over another (issue 46's fast hip
// swings, turns and jumps): the body keeps the base clip's limb motion while
// its hips (and so everything on them, legs included) turn about the
// vertical, swing sideways and hop. The tail is the only part that lags.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "rig/model/model.h"
#include "rig/model/status.h"

namespace harness {

// `spec`: {"name": N, "from": BASE, "duration_s": D, "yaw_deg": [amplitude,
// period_s], "sideways_m": [amplitude, period_s], "hop_m": [height,
// period_s]} (each motion optional). Yaw and sideways are sines, the hop
// is |sin| (a jump every period, landing in between). The base clip loops
// under it (sampled at t mod its duration). Keys every 1/60 s; metres are
// converted to the character's units. Adds the clip to `c`; a bad spec or
// an unknown base clip is a data error naming `where`.
rig::Status add_hips_motion_clip(rig::Character& c, const nlohmann::json& spec,
                                 const std::string& where);

}  // namespace harness
