// The tail skin of a rig whose tail has no bone (a humanoid rigger's output),
// kept out of body grounding by `harness retarget` and the corpus gate.
#pragma once

#include <cstddef>
#include <vector>

#include "rig/retarget/contact/grounding.h"
#include "rig/model/model.h"

namespace pipeline {

// A rig whose tail has no bone weights the tail skin to the legs and hips,
// where body grounding would read it as body and lift the pelvis (SPEC §5).
// Finds that skin with detect: fills `tail_vertices` (ascending) and returns
// their count; 0 when tail bones carry the skin (grounding finds them by
// name) or no tail is detected (a tail-shaped region mostly driven by
// non-body bones, a sword on `Weapon`, is not one); -1 on failure.
// `cloth_vertices`, when given, gets (ascending) the skin of cloth hanging
// from the trunk past the knees (a floor-length robe or cape): no foot stands
// on it either, so grounding leaves it out too.
int find_rigger_tail(const rig::Character& c, std::vector<int>& tail_vertices,
                     std::vector<int>* cloth_vertices = nullptr);

// Both, into the skin body grounding leaves out (`grounding.tail_vertices`):
// returns find_rigger_tail's tail count (-1 on failure), `cloth` the cloth's.
int keep_off_grounding(const rig::Character& c, rig::GroundingOptions& grounding, size_t& cloth);

}  // namespace pipeline
