// `harness fix IN --out OUT [--mode chain|rigid|report] [--report FILE.json]
// [--rigid-wide] [--no-tail] [--no-worn]`: detect appendages (SPEC §1) and
// rewrite them: tails become a Tail_1..Tail_K chain (§3) or rigid on Hips
// (§2), worn items rigid to their bone (--no-tail / --no-worn leave a class
// alone: the Blender add-on's checkboxes); the `appendages` report goes to --report (or stdout in report
// mode without --out).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/cli/bake_options.h"
#include "harness/cli/command.h"
#include "harness/cli/notes.h"
#include "detect/find_appendages.h"
#include "detect/appendage_report.h"
#include "pipeline/fix.h"
#include "pipeline/leg_colliders.h"
#include "rig/io/file_weights.h"
#include "rig/io/io.h"
#include "rig/io/safe_write.h"

namespace harness {

namespace {

// Frees the analysis' arrays per welded vertex (weld, graph, fields).
void release_vertex_arrays(detect::Analysis& a) {
  a.welded = rig::Welded{};
  a.graph = detect::Graph{};
  a.welded_positions = {};
  a.skeleton_distance = {};
  a.far = {};
  a.region_of = {};
  a.shell_of = {};
}

}  // namespace

Command add_fix_command(CLI::App& root) {
  struct Options {
    std::string in, out, mode = "chain", report;
    bool rigid_wide = false;
    bool no_tail = false;
    bool no_worn = false;
    bool bake = false;
    BakeCliOptions bake_cli;
  };
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand(
      "fix", "Detect appendages (tail, worn items, ears, capes...) and give tails a bone chain");
  c.app->add_option("IN", opt->in, "rigged character: glTF/GLB, FBX, ...")->required();
  c.app->add_option("--out", opt->out, "output GLB (required unless --mode report)");
  c.app->add_option("--mode", opt->mode, "chain (default), rigid (tails on Hips) or report (no rewrite)")
      ->check(CLI::IsMember({"chain", "rigid", "report"}));
  c.app->add_option("--report", opt->report, "write the appendages report (JSON) here");
  c.app->add_flag("--rigid-wide", opt->rigid_wide,
                  "also make wide trunk regions (capes, skirts) rigid on Hips");
  c.app->add_flag("--no-tail", opt->no_tail, "leave tails unchanged (reported, not rewritten)");
  c.app->add_flag("--no-worn", opt->no_worn, "leave worn items unchanged (reported, not made rigid)");
  c.app->add_flag("--bake", opt->bake, "bake the tail spring into every clip (see harness bake)");
  add_bake_cli_options(c.app, opt->bake_cli);
  c.run = [opt] {
    const detect::Mode mode = opt->mode == "rigid"    ? detect::Mode::kRigid
                              : opt->mode == "report" ? detect::Mode::kReport
                                                      : detect::Mode::kChain;
    if (opt->out.empty() && mode != detect::Mode::kReport) {
      std::fprintf(stderr, "harness fix: --out is required (or use --mode report)\n");
      return int(kExitBadInput);
    }
    rig::Character ch;
    const rig::Status loaded = rig::load(opt->in, ch);
    if (!loaded.ok()) {
      std::fprintf(stderr, "harness fix: %s\n", loaded.message.c_str());
      return int(kExitBadInput);
    }
    if (!ch.has_skin()) {
      std::fprintf(stderr, "harness fix: %s: no skinned mesh\n", opt->in.c_str());
      return int(kExitBadInput);
    }
    pipeline::FixOptions fo;
    fo.mode = mode;
    fo.detect.classify.rigid_wide = opt->rigid_wide;
    fo.detect.rewrite_tails = !opt->no_tail;
    fo.detect.rewrite_worn = !opt->no_worn;
    fo.bake = opt->bake;
    if (opt->bake && mode != detect::Mode::kReport) {
      if (rig::Status s = bake_options_from_cli(opt->bake_cli, fo.bake_options); !s.ok()) {
        std::fprintf(stderr, "harness fix: %s\n", s.message.c_str());
        return int(kExitBadInput);
      }
    }
    pipeline::FixOutcome outcome;
    if (rig::Status s = pipeline::fix_character(std::move(ch), fo, outcome); !s.ok()) {
      std::fprintf(stderr, "harness fix: %s: %s\n", opt->in.c_str(), s.message.c_str());
      return int(kExitBadInput);
    }
    detect::FixResult& result = outcome.result;
    const nlohmann::json& report = outcome.report;
    // --bake (issue 12): the written chain (or one the file already had)
    // gets baked tail keys in every clip.
    std::vector<std::string> bake_lines;
    if (outcome.baked) bake_lines = pipeline::bake_report_lines(outcome.bake);
    for (const std::string& note : outcome.notes) bake_lines.push_back(note);
    if (!opt->report.empty()) {
      if (rig::Status s = rig::write_file_atomic(opt->report, report.dump(2) + "\n"); !s.ok()) {
        std::fprintf(stderr, "harness fix: %s\n", s.message.c_str());
        return int(kExitBadInput);
      }
    }
    // The analysis' per-vertex arrays are read by nothing below (the summary
    // reads regions and the body): freed before the write, its buffers
    // reuse their pages instead of new ones the kernel must zero (issue 47:
    // ~100 MB of a 1 M-vertex fix's peak).
    release_vertex_arrays(result.analysis);
    rig::Status saved;
    if (!opt->out.empty()) {
      if (saved = rig::save_glb(result.character, opt->out); !saved.ok()) {
        std::fprintf(stderr, "harness fix: %s\n", saved.message.c_str());
        return int(kExitBadInput);
      }
    }
    print_notes("harness fix", loaded);
    print_notes("harness fix", saved);
    if (mode == detect::Mode::kReport && opt->report.empty()) {
      std::printf("%s\n", report.dump(2).c_str());
      return int(kExitOk);
    }
    std::map<std::string, int> classes;
    for (const auto& r : result.analysis.regions) ++classes[detect::class_name(r.classification.cls)];
    std::string summary;
    for (const auto& [name, n] : classes) summary += " " + name + "=" + std::to_string(n);
    // A refused file was never split into regions: say so rather than "0 regions ( )".
    const std::string regions = !result.analysis.refused.empty()
                                    ? std::string("not analysed")
                                    : std::to_string(result.analysis.regions.size()) + " regions (" + summary + " )";
    std::printf("%s: H=%.4g m, %s, %d chain, %d rigid%s%s\n", opt->in.c_str(),
                result.analysis.height * result.character.meters_per_unit, regions.c_str(), result.chains,
                result.rigid, opt->out.empty() ? "" : " -> ", opt->out.c_str());
    if (!outcome.colliders_source.empty())
      std::printf("  %s%s\n", pipeline::colliders_line(result.character, outcome.colliders_source).c_str(),
                  opt->out.empty() ? "" : ", stored on the joints (extras.tailrig_collider)");
    for (const std::string& line : bake_lines) std::printf("%s\n", line.c_str());
    if (result.chains + result.rigid > 0 && outcome.weights_on_write.total() > 0)
      std::printf("  besides the rewritten regions: %s\n", rig::weight_changes_text(outcome.weights_on_write).c_str());
    // Issue 11: nothing rewritten -> say why, per region detection weighed
    // (tails, worn items, and whatever do-no-harm left alone).
    if (result.chains == 0 && result.rigid == 0) {
      auto weighed = [](const detect::Region& r) {
        const auto cls = r.classification.cls;
        return cls == detect::AppendageClass::kTail || cls == detect::AppendageClass::kWorn || r.sheet ||
               r.reason.find("already") != std::string::npos;
      };
      std::string why = result.analysis.refused;
      if (why.empty() && result.analysis.body.tail_bones.empty() &&
          std::none_of(result.analysis.regions.begin(), result.analysis.regions.end(), weighed))
        why = "no tail or worn item found";
      const std::string changed = rig::weight_changes_text(outcome.weights_on_write);
      if (changed.empty())
        std::printf("  nothing rewritten, every weight unchanged:%s%s\n", why.empty() ? "" : " ", why.c_str());
      else
        std::printf("  nothing rewritten%s%s; every weight as the file holds it except %s\n",
                    why.empty() ? "" : ": ", why.c_str(), changed.c_str());
      for (const auto& r : result.analysis.regions) {
        if (!weighed(r)) continue;
        const auto cls = r.classification.cls;
        std::printf("  region %d %s (%zu vertices): %s\n", r.id, detect::class_name(cls), r.vertices.size(),
                    r.reason.c_str());
      }
      if (!result.analysis.body.tail_bones.empty()) {
        std::printf("  the rig already has tail bones (%zu joints from %s)\n", result.analysis.body.tail_bones.size(),
                    result.character.skeleton.names[result.analysis.body.tail_bones.front()].c_str());
      }
    }
    // (Not _Exit here to skip freeing a million per-vertex blocks, 2.5 % of
    // a 1 M-vertex fix: pipeline_tests run this command in their own
    // process, and it would end them as passed.)
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
