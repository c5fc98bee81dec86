// `harness stretch FILE --clip NAME [--tail-from REF.glb] [--samples 24]
// [--json]`: edge stretch of a file's clip with the tail vertex set taken
// from a reference rig with the same vertex order (the artist's original;
// default the file itself, and with no tail every edge is body),
// measured with our own skinning; the twin of
// scripts/blender/measure_stretch.py (definitions in file_stretch.h).
#include <cstdio>
#include <memory>
#include <string>

#include "harness/cli/command.h"
#include "measure/file_stretch.h"
#include "rig/io/io.h"

namespace harness {

Command add_stretch_command(CLI::App& root) {
  struct Options {
    std::string file, clip, reference;
    int samples = 24, worst = 0;
    bool json = false;
  };
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("stretch",
                              "Edge stretch of a clip, tail set from a reference rig with the same vertices "
                              "(our skinning; compare scripts/blender/measure_stretch.py)");
  c.app->add_option("FILE", opt->file, "rigged character")->required();
  c.app->add_option("--clip", opt->clip, "clip name")->required();
  c.app->add_option("--tail-from", opt->reference,
                    "reference rig whose tail bones define the tail vertices (default: FILE; no tail: all body)");
  c.app->add_option("--samples", opt->samples, "evenly spaced samples over the clip (default 24)")
      ->check(CLI::Range(1, 10000));
  c.app->add_option("--worst", opt->worst, "also list the N most deformed edges (where the mesh tears)")
      ->check(CLI::Range(0, 1000));
  c.app->add_flag("--json", opt->json, "print JSON");
  c.run = [opt] {
    auto fail = [](const std::string& m) {
      std::fprintf(stderr, "harness stretch: %s\n", m.c_str());
      return int(kExitBadInput);
    };
    rig::Character file, ref;
    if (opt->reference.empty()) opt->reference = opt->file;
    if (rig::Status s = rig::load(opt->file, file); !s.ok()) return fail(s.message);
    if (rig::Status s = rig::load(opt->reference, ref); !s.ok()) return fail(s.message);
    if (!file.has_skin()) return fail(opt->file + ": no skinned mesh");
    const rig::Clip* clip = nullptr;
    for (const rig::Clip& k : file.clips)
      if (k.name == opt->clip) clip = &k;
    if (!clip) return fail(opt->file + ": no clip '" + opt->clip + "'");
    measure::FileStretch fs;
    if (rig::Status s = measure::measure_file_stretch(file, *clip, ref, opt->samples, fs, opt->worst); !s.ok())
      return fail(opt->file + ": " + s.message);
    if (opt->json) {
      nlohmann::json j = measure::file_stretch_json(fs);
      j["file"] = opt->file;
      j["clip"] = clip->name;
      j["reference"] = opt->reference;
      std::printf("%s\n", j.dump(1).c_str());
      return int(kExitOk);
    }
    std::printf("%s, clip '%s', %d samples (tail set from %s: %d vertices, tip %d, frame '%s'):\n",
                opt->file.c_str(), clip->name.c_str(), opt->samples, opt->reference.c_str(), fs.tail_vertices,
                fs.tip_vertices, fs.frame_bone.c_str());
    std::printf("  %-5s %7s %6s %6s %6s %7s\n", "set", "edges", "p95", "p99", "max", "torn");
    for (const auto& [name, st, n] : {std::tuple{"tail", fs.tail, fs.tail_edges}, {"body", fs.body, fs.body_edges}})
      std::printf("  %-5s %7ld %6.2f %6.2f %6.2f %6.2f%%\n", name, n, st.p95, st.p99, st.max,
                  100.0 * st.torn_fraction);
    if (fs.tip_vertices > 0)
      std::printf("  tip range in the '%s' frame: %.4g units (%.2f %% of H = %.4g)\n", fs.frame_bone.c_str(),
                  fs.tip_range, fs.height > 0 ? 100.0 * fs.tip_range / fs.height : 0.0, fs.height);
    else
      std::printf("  no tail in %s: every edge is body\n", opt->reference.c_str());
    if (!fs.worst.empty()) std::printf("  most deformed edges (vertices, set, ratio at its worst, time, bones):\n");
    for (const measure::WorstEdge& w : fs.worst)
      std::printf("    %6d-%-6d %-4s %6.3f  t=%.3f s  %s\n", w.a, w.b, w.tail ? "tail" : "body", w.ratio, w.time,
                  w.bones.c_str());
    return int(kExitOk);
  };
  return c;
}

}  // namespace harness
