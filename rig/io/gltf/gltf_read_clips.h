// Clips of a glTF/GLB being read by load_gltf (gltf_read.cpp): one per
// animation, from its channels on joint nodes.
#pragma once

#include <tiny_gltf.h>

#include <map>
#include <string>
#include <vector>

#include "rig/model/model.h"
#include "rig/model/status.h"

namespace rig {

// Notes say which keys were dropped or replaced.
Status read_gltf_clips(const std::string& path, const tinygltf::Model& m,
                       const std::map<int, int>& skeleton_index_of_node, std::vector<Clip>& clips,
                       std::vector<std::string>& notes);

}  // namespace rig
