// `harness fixture NAME --out FILE.glb [shape options]`, `harness fixture --list`,
// `harness fixture clips --out clips.glb`: procedural characters and clips.
#include <cstdint>
#include <cstdio>
#include <string>

#include "harness/cli/command.h"
#include "fixtures/fixtures.h"
#include "rig/io/io.h"

namespace harness {

namespace {

struct FixtureArgs {
  std::string name;
  std::string out;
  bool list = false;
  std::uint64_t seed = 0;
  double height = 0, tail_length = 0, tail_radius = 0, tail_curl = 0, tail_side_curl = 0,
         attach_angle = 0, density = 0, unit_scale = 0, armature_scale = 0;
  int tail_bones = 0;
};

}  // namespace

Command add_fixture_command(CLI::App& root) {
  auto args = std::make_shared<FixtureArgs>();
  Command c;
  CLI::App* app = root.add_subcommand(
      "fixture", "Write a procedural test character (or the canonical clips) as GLB");
  c.app = app;
  app->add_option("name", args->name, "fixture name (see --list), or 'clips' for a clip source");
  app->add_option("--out,-o", args->out, "output .glb file");
  app->add_flag("--list", args->list, "list fixtures with a one-line description");
  auto* o_seed = app->add_option("--seed", args->seed, "shape jitter seed (default 1)");
  auto* o_height = app->add_option("--height", args->height, "model height in metres (default 1.91)");
  auto* o_len = app->add_option("--tail-length", args->tail_length, "tail length as a fraction of height");
  auto* o_rad = app->add_option("--tail-radius", args->tail_radius, "tail radius as a fraction of height");
  auto* o_curl = app->add_option("--tail-curl", args->tail_curl, "backward curl of the tail tip, degrees");
  auto* o_side = app->add_option("--tail-side-curl", args->tail_side_curl, "lateral tail bend toward +X, degrees");
  auto* o_att = app->add_option("--attach-angle", args->attach_angle, "tail root angle from straight down toward the back, degrees");
  auto* o_den = app->add_option("--density", args->density, "vertex density multiplier (default 1)");
  auto* o_unit = app->add_option("--unit-scale", args->unit_scale, "model units per metre (100: centimetres)");
  auto* o_arm = app->add_option("--armature-scale", args->armature_scale, "scale of the node above Hips (e.g. 0.01)");
  auto* o_bones = app->add_option("--tail-bones", args->tail_bones, "mouse_chained: number of tail bones");
  c.run = [=]() -> int {
    if (args->list) {
      for (const auto& f : fixtures::list_fixtures())
        std::printf("%-14s %s\n", f.name.c_str(), f.description.c_str());
      std::printf("%-14s %s\n", "clips", "clip source: canonical skeleton with every canonical clip, no mesh");
      return kExitOk;
    }
    if (args->name.empty()) {
      std::fprintf(stderr, "harness fixture: give a fixture name or --list\n");
      return kExitBadInput;
    }
    const bool clips = args->name == "clips";
    if (!clips && !fixtures::has_fixture(args->name)) {
      std::fprintf(stderr, "harness fixture: unknown fixture '%s' (see harness fixture --list)\n",
                   args->name.c_str());
      return kExitBadInput;
    }
    if (args->out.empty()) {
      std::fprintf(stderr, "harness fixture: --out FILE.glb is required\n");
      return kExitBadInput;
    }
    fixtures::FixtureParams p = fixtures::default_params(clips ? "tailless" : args->name);
    if (o_seed->count()) p.seed = args->seed;
    if (o_height->count()) p.height = args->height;
    if (o_len->count()) p.tail_length = args->tail_length;
    if (o_rad->count()) p.tail_radius = args->tail_radius;
    if (o_curl->count()) p.tail_curl = args->tail_curl;
    if (o_side->count()) p.tail_side_curl = args->tail_side_curl;
    if (o_att->count()) p.attach_angle = args->attach_angle;
    if (o_den->count()) p.density = args->density;
    if (o_unit->count()) p.unit_scale = args->unit_scale;
    if (o_arm->count()) p.armature_scale = args->armature_scale;
    if (o_bones->count()) p.tail_bones = args->tail_bones;
    rig::Character ch;
    std::string error;
    const bool ok = clips ? fixtures::make_clip_source(p, ch, &error)
                          : fixtures::make_fixture(args->name, p, ch, &error);
    if (!ok) {
      std::fprintf(stderr, "harness fixture: %s\n", error.c_str());
      return kExitBadInput;
    }
    const rig::Status st = rig::save_glb(ch, args->out);
    if (!st.ok()) {
      std::fprintf(stderr, "harness fixture: cannot write %s: %s\n", args->out.c_str(), st.message.c_str());
      return kExitBadInput;
    }
    std::fprintf(stderr, "harness fixture: wrote %s (%d vertices, %zu triangles, %d joints, %zu clips)\n",
                 args->out.c_str(), ch.mesh.vertex_count(), ch.mesh.triangles.size(), ch.skeleton.size(),
                 ch.clips.size());
    return kExitOk;
  };
  return c;
}

}  // namespace harness
