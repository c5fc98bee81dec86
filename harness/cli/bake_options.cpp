#include "harness/cli/bake_options.h"

#include <sstream>
#include <string>

#include "pipeline/solver_params.h"

namespace harness {

void add_bake_cli_options(CLI::App* app, BakeCliOptions& o) {
  app->add_option("--clips", o.clips, "bake only these clips (comma-separated names; default: every clip)");
  app->add_option("--fps", o.fps, "keys per second of the baked tail tracks (default 30)");
  app->add_flag("--loop", o.loop, "treat every baked clip as a loop (warm-up, closed seam)");
  app->add_flag("--no-loop", o.no_loop, "treat no clip as a loop (start from the settled carry pose)");
  app->add_option("--solver", o.solver,
                  "spring parameters as a JSON object, e.g. '{\"damping_ratio\": 0.8}' (names of solver/params.h)");
  app->add_flag("--no-colliders", o.no_colliders,
                "bake without the leg colliders (the tail may swing into the legs; to compare)");
}

rig::Status bake_options_from_cli(const BakeCliOptions& cli, pipeline::BakeClipsOptions& out) {
  auto usage = [](const std::string& m) { return rig::Status::Error(rig::Status::Code::kBadData, m); };
  if (cli.loop && cli.no_loop) return usage("--loop and --no-loop exclude each other");
  if (!(cli.fps > 0 && cli.fps <= 1000)) return usage("--fps must be in (0, 1000]");
  out.fps = cli.fps;
  out.loop = cli.loop ? pipeline::LoopMode::kLoop : cli.no_loop ? pipeline::LoopMode::kNoLoop : pipeline::LoopMode::kAuto;
  out.clips.clear();
  std::stringstream ss(cli.clips);
  for (std::string name; std::getline(ss, name, ',');)
    if (!name.empty()) out.clips.push_back(name);
  if (!cli.clips.empty() && out.clips.empty()) return usage("--clips names no clip");
  if (!cli.solver.empty()) {
    const nlohmann::json j = nlohmann::json::parse(cli.solver, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return usage("--solver must be a JSON object");
    std::string err;
    if (!pipeline::apply_solver_overrides(j, out.params, err)) return usage("--solver: " + err);
    // A margin given is used as given (else the tail's root radius).
    if (j.contains("collider_margin")) out.collider_margin_m = out.params.collider_margin;
    // A spring field given is used as given (else sized to the tail: spring_size.h).
    out.sizing = pipeline::sizing_without(j);
  }
  out.colliders = !cli.no_colliders;
  return rig::Status::Ok();
}

rig::Status bake_and_print(rig::Character& c, const pipeline::BakeClipsOptions& o, pipeline::BakeClipsReport& report, std::FILE* out) {
  if (rig::Status s = pipeline::bake_clips(c, o, report); !s.ok()) return s;
  for (const std::string& line : pipeline::bake_report_lines(report)) std::fprintf(out, "%s\n", line.c_str());
  return rig::Status::Ok();
}

}  // namespace harness
