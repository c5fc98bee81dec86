// Internal: in-place clips (rig/limb_contact.cpp). Game walks keep the hips
// over the origin: a standing foot slides back under the body, not at one
// speed (a wolf's at 0.3 to 3 m/s about the 2 m/s of the walk), so a
// stillness test finds no stance in them; their soles' height tells it.
#pragma once

#include <span>
#include <vector>

#include "rig/model/model.h"

namespace rig {

// True when the clip walks in place: the lowest sole point per sample
// slides (the median of its horizontal velocities, over the clip) by at
// least kMinSlide leg lengths while the hips stay within kHipsTravelMax of
// that slide from where they start. False with root motion (standing soles
// are still) and with fewer than three samples. `soles`: [sole point]
// [sample] world positions of every foot; `hips`: per sample.
bool walks_in_place(std::span<const double> times, const std::vector<const std::vector<Vec3>*>& soles,
                    const std::vector<Vec3>& hips, double leg_length);

}  // namespace rig
