// A character's clip by name.
#pragma once

#include <string>

#include "rig/model/model.h"

namespace rig {

// The character's clip named `name`, or nullptr.
inline const Clip* find_clip(const Character& c, const std::string& name) {
  for (const Clip& clip : c.clips)
    if (clip.name == name) return &clip;
  return nullptr;
}

}  // namespace rig
