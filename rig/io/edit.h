// Structural edits of a loaded character that keep it writable.
#pragma once

#include <span>

#include "rig/io/io.h"
#include "rig/model/model.h"

namespace rig {

// Removes `joints` from the skeleton: parents, roles, influences and clip
// tracks are remapped, tracks of removed joints dropped. The set must hold
// every descendant of its members and carry no skin weight (move the weights
// first), so no vertex changes. For a glTF source the nodes stay in the
// document (their animation channels stay valid); they leave the skin.
// kBadData when the set is not closed, weighted, or names a missing joint.
Status remove_joints(Character& character, std::span<const int> joints);

}  // namespace rig
