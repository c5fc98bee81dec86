// `harness fix IN --out OUT [--mode chain|rigid|report] [--report FILE.json]
// [--rigid-wide]`: detect appendages (SPEC §1) and rewrite them: tails become
// a Tail_1..Tail_K chain (§3) or rigid on Hips (§2), worn items rigid to
// their bone; the `appendages` report goes to --report (or stdout in report
// mode without --out).
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "command.h"
#include "detect/find_appendages.h"
#include "detect/report.h"
#include "rig/io.h"

namespace harness {

Command add_fix_command(CLI::App& root) {
  struct Options {
    std::string in, out, mode = "chain", report;
    bool rigid_wide = false;
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
  c.run = [opt] {
    const detect::Mode mode = opt->mode == "rigid"    ? detect::Mode::kRigid
                              : opt->mode == "report" ? detect::Mode::kReport
                                                      : detect::Mode::kChain;
    if (opt->out.empty() && mode != detect::Mode::kReport) {
      std::fprintf(stderr, "harness fix: --out is required (or use --mode report)\n");
      return int(kExitBadInput);
    }
    rig::Character ch;
    if (rig::Status s = rig::load(opt->in, ch); !s.ok()) {
      std::fprintf(stderr, "harness fix: %s\n", s.message.c_str());
      return int(kExitBadInput);
    }
    if (!ch.has_skin()) {
      std::fprintf(stderr, "harness fix: %s: no skinned mesh\n", opt->in.c_str());
      return int(kExitBadInput);
    }
    detect::Params params;
    params.classify.rigid_wide = opt->rigid_wide;
    detect::FixResult result;
    if (rig::Status s = detect::fix(ch, mode, params, result); !s.ok()) {
      std::fprintf(stderr, "harness fix: %s: %s\n", opt->in.c_str(), s.message.c_str());
      return int(kExitBadInput);
    }
    const nlohmann::json report = detect::appendage_report(result.character, result.analysis);
    if (!opt->report.empty()) {
      std::ofstream f(opt->report);
      f << report.dump(2) << "\n";
      if (!f) {
        std::fprintf(stderr, "harness fix: cannot write %s\n", opt->report.c_str());
        return int(kExitBadInput);
      }
    }
    if (!opt->out.empty()) {
      if (rig::Status s = rig::save_glb(result.character, opt->out); !s.ok()) {
        std::fprintf(stderr, "harness fix: %s\n", s.message.c_str());
        return int(kExitBadInput);
      }
    }
    if (mode == detect::Mode::kReport && opt->report.empty()) {
      std::printf("%s\n", report.dump(2).c_str());
      return int(kExitOk);
    }
    std::map<std::string, int> classes;
    for (const auto& r : result.analysis.regions) ++classes[detect::class_name(r.classification.cls)];
    std::string summary;
    for (const auto& [name, n] : classes) summary += " " + name + "=" + std::to_string(n);
    std::printf("%s: H=%.4g m, %zu regions (%s ), %d chain, %d rigid%s%s\n", opt->in.c_str(),
                result.analysis.height * ch.meters_per_unit, result.analysis.regions.size(),
                summary.c_str(), result.chains, result.rigid, opt->out.empty() ? "" : " -> ",
                opt->out.c_str());
    // Issue 11: nothing rewritten -> say why, per region detection weighed
    // (tails, worn items, and whatever do-no-harm left alone).
    if (result.chains == 0 && result.rigid == 0) {
      std::printf("  nothing rewritten, every weight unchanged:\n");
      for (const auto& r : result.analysis.regions) {
        const auto cls = r.classification.cls;
        const bool weighed = cls == detect::AppendageClass::kTail || cls == detect::AppendageClass::kWorn ||
                             r.reason.find("already") != std::string::npos;
        if (!weighed) continue;
        std::printf("  region %d %s (%zu vertices): %s\n", r.id, detect::class_name(cls), r.vertices.size(),
                    r.reason.c_str());
      }
      if (!result.analysis.body.tail_bones.empty()) {
        std::printf("  the rig already has tail bones (%zu joints from %s)\n", result.analysis.body.tail_bones.size(),
                    ch.skeleton.names[result.analysis.body.tail_bones.front()].c_str());
      }
    }
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
