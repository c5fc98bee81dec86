// `harness strip-tail IN --out OUT [--bones REGEX]`: take the weights off a
// real rig's tail bones and give them to the nearest body bones (hips,
// thighs, shins, feet) the way a humanoid auto-rigger would, turning a
// tailed character into a test case for `harness fix`. The tail joints then
// leave the skin (their glTF nodes stay, so animation channels remain valid);
// --keep-joints leaves them in the skin, weightless.
#include <cstdio>
#include <memory>
#include <string>

#include "harness/cli/command.h"
#include "harness/cli/notes.h"
#include "detect/rewrite/strip_tail.h"
#include "rig/io/io.h"

namespace harness {

Command add_strip_tail_command(CLI::App& root) {
  struct Options {
    std::string in, out, bones = detect::kDefaultTailRegex;
    bool keep_joints = false;
  };
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand(
      "strip-tail", "Give a tailed rig's tail weights to the nearest leg/hip bones (a humanoid rigger's result)");
  c.app->add_option("IN", opt->in, "rigged character with tail bones")->required();
  c.app->add_option("--out", opt->out, "output GLB")->required();
  c.app->add_option("--bones", opt->bones,
                    "regex (case-insensitive, searched) of tail bone names; descendants follow")
      ->capture_default_str();
  c.app->add_flag("--keep-joints", opt->keep_joints, "keep the tail joints in the skin, weightless");
  c.run = [opt] {
    rig::Character ch;
    const rig::Status loaded = rig::load(opt->in, ch);
    if (!loaded.ok()) {
      std::fprintf(stderr, "harness strip-tail: %s\n", loaded.message.c_str());
      return int(kExitBadInput);
    }
    detect::StripTailParams params;
    params.regex = opt->bones;
    params.remove_joints = !opt->keep_joints;
    rig::Character out;
    detect::StripTailResult res;
    if (rig::Status s = detect::strip_tail(ch, params, out, &res); !s.ok()) {
      std::fprintf(stderr, "harness strip-tail: %s: %s\n", opt->in.c_str(), s.message.c_str());
      return int(kExitBadInput);
    }
    const rig::Status saved = rig::save_glb(out, opt->out);
    if (!saved.ok()) {
      std::fprintf(stderr, "harness strip-tail: %s\n", saved.message.c_str());
      return int(kExitBadInput);
    }
    print_notes("harness strip-tail", loaded);
    print_notes("harness strip-tail", saved);
    std::string names;
    for (int j : res.removed) names += " " + ch.skeleton.names[j];
    std::printf("%s: %zu tail joints %s (%s ), %d vertices reweighted -> %s\n",
                opt->in.c_str(), res.removed.size(), opt->keep_joints ? "made weightless" : "removed",
                names.c_str(), res.vertices_changed,
                opt->out.c_str());
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
