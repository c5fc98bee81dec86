// The primitives of a rewritten glTF document that the reader skipped
// (strips, lines, points): their JOINTS remapped to the written skin, for
// save_in_place (gltf_write.cpp).
#pragma once

#include <map>
#include <vector>

#include "rig/io/gltf/gltf_document.h"
#include "rig/model/model.h"
#include "rig/model/status.h"

namespace rig {

// A removed joint's influence goes to its nearest kept ancestor.
Status remap_unread_primitives(gltf_doc::Writer& w, const Character& c,
                               const std::vector<std::vector<int>>& old_joints,
                               const std::map<int, int>& old_skin_of_node, const std::vector<int>& joint_node,
                               const std::vector<int>& skin_index_of_joint);

}  // namespace rig
