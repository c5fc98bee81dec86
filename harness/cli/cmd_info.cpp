// `harness info FILE [--json]`: what a rig or clip file holds.
#include <cstdio>
#include <memory>

#include "pipeline/summary.h"
#include "harness/cli/command.h"
#include "harness/cli/notes.h"
#include "rig/io/io.h"

namespace harness {

Command add_info_command(CLI::App& root) {
  struct Options {
    std::string file;
    bool json = false;
  };
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("info", "Describe a rig or clip file: format, height, mesh, skeleton with roles, skin, clips");
  c.app->add_option("FILE", opt->file, "glTF/GLB, FBX, BVH, DAE... file")->required();
  c.app->add_flag("--json", opt->json, "Print JSON instead of text");
  c.run = [opt] {
    rig::Character ch;
    const rig::Status loaded = rig::load(opt->file, ch);
    if (!loaded.ok()) {
      std::fprintf(stderr, "harness info: %s\n", loaded.message.c_str());
      return int(kExitBadInput);
    }
    if (!ch.has_skin() && ch.clips.empty()) {
      std::fprintf(stderr, "harness info: %s: no skinned mesh and no animation: not a character or clip source\n",
                   opt->file.c_str());
      return int(kExitBadInput);
    }
    const nlohmann::json s = pipeline::summarize(ch);
    if (opt->json) std::printf("%s\n", s.dump(2).c_str());
    else pipeline::print_summary(s, stdout);
    print_notes("harness info", loaded);
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
