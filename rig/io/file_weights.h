// What writing a character changes in the skin weights its file holds.
//
// Reading settles weights (merged per joint, summing to 1). Writing puts
// back the file's own weights wherever the model still holds what settling
// made of them and the Khronos validator accepts them as they are, so a
// character nothing rewrote keeps every weight bit for bit. What cannot be
// put back is counted here, so a summary can say exactly what changed and why
// (issue 45, class 8).
#pragma once

#include <string>
#include <vector>

#include "rig/model/model.h"

namespace rig {

struct WeightWriteChanges {
  int renormalised = 0;   // weights not summing to 1 (beyond the validator's tolerance): written summing to 1
  int merged = 0;         // a joint named twice in one vertex: written once, weights summed, renormalised
  int given_a_joint = 0;  // no positive weight: written fully weighted to the nearest joint
  double worst_sum_error = 0.0;  // largest |sum - 1| of the file's weights among the renormalised and merged
  int total() const { return renormalised + merged + given_a_joint; }
};

// For vertices whose influences are still those read (not rewritten since):
// how many a glTF write of `c` changes from its source file. All zero for a
// character not read from glTF (no source weights to keep).
WeightWriteChanges weights_changed_on_write(const Character& c);

// One line: "749 vertices renormalised to sum 1 (the file's sums were off by
// up to 0.012; the validator requires 1), ..."; empty when nothing changes.
std::string weight_changes_text(const WeightWriteChanges& changes);

// Per model vertex, the weights `c`'s source glTF file holds (every component
// with weight > 0, set by set; joints as skeleton indices). Empty when `c`
// was not read from glTF or the file cannot be read again.
std::vector<std::vector<Influence>> weights_in_file(const Character& c);

}  // namespace rig
