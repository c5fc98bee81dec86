// Fixing a character as the product does it (`harness fix`, the corpus gate,
// the Blender add-on): find its appendages and rewrite them by class and mode
// (detect::fix: a Tail_* chain, rigid regions, or nothing where detection is
// unsure), then give a character with a tail chain its legs' colliders
// (issue 46: fitted to the legs' own skin, stored in the written glTF) and,
// when asked, bake the tail spring into every clip. The report is detect's
// `appendages` JSON with "leg_colliders" and the bake's report under "bake".
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "detect/find_appendages.h"
#include "pipeline/bake_clips.h"
#include "rig/io/file_weights.h"
#include "rig/model/model.h"
#include "rig/model/status.h"

namespace pipeline {

struct FixOptions {
  detect::Mode mode = detect::Mode::kChain;
  detect::Params detect;
  bool bake = false;              // bake the tail spring into every clip (not in kReport mode)
  BakeClipsOptions bake_options;  // clips, key rate, loop mode, spring parameters, colliders
};

struct FixOutcome {
  detect::FixResult result;        // the rewritten character, the analysis, chains and rigid counts
  nlohmann::json report;           // detect::appendage_report (+ "bake" when baked)
  bool baked = false;
  BakeClipsReport bake;            // when baked
  // The leg colliders the fixed character carries (issue 46; leg_colliders.h):
  // "fitted" by this fix, "stored" (the file had them) or "" (none: no chain).
  std::string colliders_source;
  std::vector<std::string> notes;  // one line each: why nothing was baked, or that a new chain has no keys
  // Weights a write of result.character changes beyond fix's own rewrites
  // (the file's weights the validator refuses as they are; rig/io/file_weights.h).
  rig::WeightWriteChanges weights_on_write;
};

// `character` is taken by value (pass an rvalue when the input is not needed
// after: at 1 M vertices a copy is a fifth of the memory fix touches). Data
// errors of detection or of the bake return their status.
rig::Status fix_character(rig::Character character, const FixOptions& options, FixOutcome& outcome);

}  // namespace pipeline
