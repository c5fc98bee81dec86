// `harness bake IN --out OUT [--clips A,B] [--fps 30] [--loop|--no-loop]
// [--report R.json]`: a file that already has a Tail_* chain gets the spring
// baked into every clip as real keyframes (SPEC §9, issue 12).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "harness/cli/bake_options.h"
#include "harness/cli/command.h"
#include "rig/io/io.h"
#include "rig/io/safe_write.h"

namespace harness {

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
    pipeline::BakeClipsOptions bo;
    if (rig::Status s = bake_options_from_cli(opt->bake, bo); !s.ok()) return fail(s.message);
    rig::Character ch;
    if (rig::Status s = rig::load(opt->in, ch); !s.ok()) return fail(s.message);
    if (!ch.has_skin()) return fail(opt->in + ": no skinned mesh");
    if (ch.clips.empty()) return fail(opt->in + ": no animation clips to bake");
    pipeline::BakeClipsReport report;
    std::printf("%s:\n", opt->in.c_str());
    if (rig::Status s = bake_and_print(ch, bo, report, stdout); !s.ok()) return fail(opt->in + ": " + s.message);
    if (!opt->report.empty())
      if (rig::Status s = rig::write_file_atomic(opt->report, pipeline::bake_report_json(report).dump(2) + "\n"); !s.ok())
        return fail(s.message);
    if (rig::Status s = rig::save_glb(ch, opt->out); !s.ok()) return fail(s.message);
    std::printf("wrote %s\n", opt->out.c_str());
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
