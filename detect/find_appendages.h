// Finding appendages and fixing them (SPEC §1-3): the composition of the
// building blocks. Input is never modified; rewrites return a new Character.
#pragma once

#include <string>

#include "detect/region.h"
#include "rig/model/model.h"
#include "rig/model/status.h"

namespace detect {

// Detects and classifies. Data errors (no skin, no skeleton, flat model)
// come back as a status; `c.skeleton.roles` is used when filled (one per
// joint, not all "none"), otherwise rig::assign_roles runs on a copy.
rig::Status find_appendages(const rig::Character& c, const Params& params, Analysis& out);

enum class Mode { kChain, kRigid, kReport };

struct FixResult {
  rig::Character character;  // the rewritten character (a copy in report mode)
  Analysis analysis;
  int chains = 0, rigid = 0;  // regions rewritten
};

// find_appendages, then the rewrites by class and mode: chain (or rigid on
// Hips in kRigid mode) for tails, rigid to its bone for worn items, rigid on
// Hips for wide regions only with params.classify.rigid_wide; nothing in
// kReport mode. Weights outside rewritten regions stay bit-identical; new
// joints are appended after the existing ones. `c` is taken by value: pass an
// rvalue when the input is not needed after (at 1 M vertices a copy of the
// character is a fifth of the memory `harness fix` touches).
rig::Status fix(rig::Character c, Mode mode, const Params& params, FixResult& out);

}  // namespace detect
