// FBX, BVH, DAE and the other formats through Assimp 5.2. Never used for
// glTF (it misreads normalized-integer weights): rig::load picks by format.
#pragma once

#include <string>

#include "rig/model/model.h"
#include "rig/model/status.h"

namespace rig {

Status load_assimp(const std::string& path, FileFormat format, Character& out);

}  // namespace rig
