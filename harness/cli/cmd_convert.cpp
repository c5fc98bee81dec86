// `harness convert IN --out OUT.glb`: read any supported file and write it as
// GLB. glTF input is written back by editing the original document, so an
// unchanged round trip keeps materials, textures and extensions.
#include <cstdio>
#include <memory>

#include "harness/cli/command.h"
#include "harness/cli/notes.h"
#include "rig/io/io.h"

namespace harness {

Command add_convert_command(CLI::App& root) {
  struct Options {
    std::string in, out;
  };
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("convert", "Read a rig (glTF, GLB, FBX, DAE...) and write it as GLB");
  c.app->add_option("IN", opt->in, "Input file")->required();
  c.app->add_option("--out,-o", opt->out, "Output .glb")->required();
  c.run = [opt] {
    rig::Character ch;
    const rig::Status loaded = rig::load(opt->in, ch);
    if (!loaded.ok()) {
      std::fprintf(stderr, "harness convert: %s\n", loaded.message.c_str());
      return int(kExitBadInput);
    }
    if (!ch.has_skin() && ch.clips.empty()) {
      std::fprintf(stderr, "harness convert: %s: no skinned mesh and no animation\n", opt->in.c_str());
      return int(kExitBadInput);
    }
    const rig::Status saved = rig::save_glb(ch, opt->out);
    if (!saved.ok()) {
      std::fprintf(stderr, "harness convert: %s\n", saved.message.c_str());
      return int(kExitBadInput);
    }
    print_notes("harness convert", loaded);
    print_notes("harness convert", saved);
    std::printf("harness convert: wrote %s\n", opt->out.c_str());
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
