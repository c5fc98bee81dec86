// Checks and repairs shared by the file readers (internal to rig/).
#pragma once

#include "rig/model.h"

namespace rig {

// Makes every track's key times strictly increasing: of keys sharing a time
// the last is kept (the value from that time on). Returns how many keys were
// dropped. Times must already be sorted.
int make_key_times_increasing(Clip& clip);

}  // namespace rig
