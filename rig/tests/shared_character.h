// Test helpers: a shared character from the assets folder and its clips.
#pragma once

#include <filesystem>
#include <string>

#include "rig/retarget/clip_transfer.h"
#include "rig/io/io.h"
#include "rig/model/model.h"

namespace rig {

// ../shared/assets/characters/NAME loaded into `c`; false when the asset is
// missing or does not load (callers skip).
inline bool load_shared_character(const std::string& name, Character& c) {
  const std::string path = std::string(TAILRIG_ASSETS) + "/characters/" + name;
  return std::filesystem::exists(path) && load(path, c).ok();
}

// The clip of `c` named `name`, or nullptr.
inline const Clip* clip_named(const Character& c, const std::string& name) {
  for (const Clip& x : c.clips)
    if (x.name == name) return &x;
  return nullptr;
}

// `clip`, one of `c`'s own, transferred onto `c` itself (one calibration for
// both sides).
inline TransferResult transfer_onto_itself(const Character& c, const Clip& clip, const TransferOptions& o = {}) {
  const Calibration cal = calibrate(c.skeleton);
  return transfer_clip(c, clip, cal, c, cal, o);
}

}  // namespace rig
