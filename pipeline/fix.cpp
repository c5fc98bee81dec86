#include "pipeline/fix.h"

#include <utility>

#include "detect/appendage_report.h"
#include "pipeline/leg_colliders.h"

namespace pipeline {

rig::Status fix_character(rig::Character character, const FixOptions& options, FixOutcome& outcome) {
  outcome = FixOutcome{};
  detect::FixResult& result = outcome.result;
  if (rig::Status s = detect::fix(std::move(character), options.mode, options.detect, result); !s.ok()) return s;
  outcome.report = detect::appendage_report(result.character, result.analysis);
  outcome.weights_on_write = rig::weights_changed_on_write(result.character);
  const rig::WeightWriteChanges& w = outcome.weights_on_write;
  outcome.report["weights_on_write"] = {{"renormalised", w.renormalised},
                                        {"merged", w.merged},
                                        {"given_a_joint", w.given_a_joint},
                                        {"worst_sum_error", w.worst_sum_error}};
  if (options.mode == detect::Mode::kReport) return rig::Status::Ok();
  // A tail chain (written now or the file's) gets the legs it must stay out
  // of, fitted to the skin the legs dominate without any appendage region's
  // (the rigger's tail on the thighs is no thigh) or the tail's.
  rig::Character& fixed = result.character;
  if (!fixed.colliders.empty()) {
    outcome.colliders_source = "stored";
  } else if (has_tail_chain(fixed)) {
    std::vector<std::vector<int>> regions;
    for (const detect::Region& r : result.analysis.regions) regions.push_back(r.vertices);
    fixed.colliders = fit_leg_colliders(fixed, tail_skin(fixed, regions, tail_joints(fixed.skeleton)));
    if (!fixed.colliders.empty()) outcome.colliders_source = "fitted";
  }
  if (!outcome.colliders_source.empty())
    outcome.report["leg_colliders"] = colliders_json(fixed, outcome.colliders_source);
  if (!options.bake) {
    // Viewers play only keys: an unbaked chain rides the hips rigidly.
    if (result.chains > 0 && !result.character.clips.empty())
      outcome.notes.push_back("note: the new Tail_* chain has no keys in the file's " +
                              std::to_string(result.character.clips.size()) +
                              " clips, so it follows the hips rigidly there: --bake (or harness bake OUT) gives it "
                              "the spring's swing");
    return rig::Status::Ok();
  }
  // The written chain (or one the file already had) gets baked tail keys.
  if (!has_tail_chain(result.character)) {
    outcome.notes.push_back("bake: no Tail_* chain: nothing baked");
  } else if (result.character.clips.empty()) {
    outcome.notes.push_back("bake: no animation clips: nothing baked");
  } else {
    if (rig::Status s = bake_clips(result.character, options.bake_options, outcome.bake); !s.ok())
      return rig::Status::Error(s.code, "bake: " + s.message);
    outcome.baked = true;
    outcome.report["bake"] = bake_report_json(outcome.bake);
  }
  return rig::Status::Ok();
}

}  // namespace pipeline
