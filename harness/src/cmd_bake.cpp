// `harness bake IN --out OUT [--clips A,B] [--fps 30] [--loop|--no-loop]
// [--report R.json]`: a file that already has a Tail_* chain gets the spring
// baked into every clip as real keyframes (SPEC §9, issue 12). Also the bake
// options shared with `fix --bake` and `retarget --bake`.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "bake_cli.h"
#include "command.h"
#include "rig/io.h"
#include "rig/safe_write.h"
#include "solver_params.h"

namespace harness {

void add_bake_cli_options(CLI::App* app, BakeCliOptions& o) {
  app->add_option("--clips", o.clips, "bake only these clips (comma-separated names; default: every clip)");
  app->add_option("--fps", o.fps, "keys per second of the baked tail tracks (default 30)");
  app->add_flag("--loop", o.loop, "treat every baked clip as a loop (warm-up, closed seam)");
  app->add_flag("--no-loop", o.no_loop, "treat no clip as a loop (start from the settled carry pose)");
  app->add_option("--solver", o.solver,
                  "spring parameters as a JSON object, e.g. '{\"damping_ratio\": 0.8}' (names of solver/params.h)");
}

rig::Status bake_options_from_cli(const BakeCliOptions& cli, BakeClipsOptions& out) {
  auto usage = [](const std::string& m) { return rig::Status::Error(rig::Status::Code::kBadData, m); };
  if (cli.loop && cli.no_loop) return usage("--loop and --no-loop exclude each other");
  if (!(cli.fps > 0 && cli.fps <= 1000)) return usage("--fps must be in (0, 1000]");
  out.fps = cli.fps;
  out.loop = cli.loop ? LoopMode::kLoop : cli.no_loop ? LoopMode::kNoLoop : LoopMode::kAuto;
  out.clips.clear();
  std::stringstream ss(cli.clips);
  for (std::string name; std::getline(ss, name, ',');)
    if (!name.empty()) out.clips.push_back(name);
  if (!cli.clips.empty() && out.clips.empty()) return usage("--clips names no clip");
  if (!cli.solver.empty()) {
    const nlohmann::json j = nlohmann::json::parse(cli.solver, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return usage("--solver must be a JSON object");
    std::string err;
    if (!apply_solver_overrides(j, out.params, err)) return usage("--solver: " + err);
  }
  return rig::Status::Ok();
}

rig::Status bake_and_print(rig::Character& c, const BakeClipsOptions& o, BakeClipsReport& report, std::FILE* out) {
  if (rig::Status s = bake_clips(c, o, report); !s.ok()) return s;
  for (const std::string& line : bake_report_lines(report)) std::fprintf(out, "%s\n", line.c_str());
  return rig::Status::Ok();
}

Command add_bake_command(CLI::App& root) {
  struct Options {
    std::string in, out, report;
    BakeCliOptions bake;
  };
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("bake",
                              "Bake the tail spring into every clip of a file that has a Tail_* chain (keyframes on "
                              "the tail bones; other tracks untouched)");
  c.app->add_option("IN", opt->in, "rigged character with a Tail_1..Tail_K chain (e.g. harness fix output)")
      ->required();
  c.app->add_option("--out", opt->out, "output GLB")->required();
  c.app->add_option("--report", opt->report, "write the per-clip bake report (JSON) here");
  add_bake_cli_options(c.app, opt->bake);
  c.run = [opt] {
    auto fail = [](const std::string& m) {
      std::fprintf(stderr, "harness bake: %s\n", m.c_str());
      return int(kExitBadInput);
    };
    BakeClipsOptions bo;
    if (rig::Status s = bake_options_from_cli(opt->bake, bo); !s.ok()) return fail(s.message);
    rig::Character ch;
    if (rig::Status s = rig::load(opt->in, ch); !s.ok()) return fail(s.message);
    if (!ch.has_skin()) return fail(opt->in + ": no skinned mesh");
    if (ch.clips.empty()) return fail(opt->in + ": no animation clips to bake");
    BakeClipsReport report;
    std::printf("%s:\n", opt->in.c_str());
    if (rig::Status s = bake_and_print(ch, bo, report, stdout); !s.ok()) return fail(opt->in + ": " + s.message);
    if (!opt->report.empty())
      if (rig::Status s = rig::write_file_atomic(opt->report, bake_report_json(report).dump(2) + "\n"); !s.ok())
        return fail(s.message);
    if (rig::Status s = rig::save_glb(ch, opt->out); !s.ok()) return fail(s.message);
    std::printf("wrote %s\n", opt->out.c_str());
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
