// Internal to rig/io: the mesh part of load_gltf.
#pragma once

#include <map>
#include <string>

#include "rig/io/gltf/gltf_source.h"

namespace rig {

// Every triangle primitive of src.skinned_nodes, in order, appended to
// out.mesh (positions placed in bind space by the node's skin offset,
// triangles, source primitive and index) and out.skin (the file's
// influences, unsettled); src.primitive_nodes gets each one's node. The
// arrays are reserved once for all of them; accessors are read in blocks.
Status read_skinned_primitives(const std::string& path, const std::map<int, int>& skeleton_index_of_node,
                               GltfSource& src, Character& out);

}  // namespace rig
