// The bake options shared by `harness bake`, `harness fix --bake` and
// `harness retarget --bake`.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "pipeline/bake_clips.h"
#include "rig/io/io.h"

namespace harness {

struct BakeCliOptions {
  std::string clips;  // "A,B"; empty = every clip
  double fps = 30.0;
  bool loop = false;
  bool no_loop = false;
  std::string solver;  // JSON object of solver::ChainParams overrides (field names of solver/params.h)
  bool no_colliders = false;  // bake without the leg colliders (issue 46), to compare
};

// Adds --clips, --fps, --loop, --no-loop, --solver, --no-colliders to `app`.
void add_bake_cli_options(CLI::App* app, BakeCliOptions& o);

// Checks the CLI values and fills `out` (usage errors: a one-line status).
rig::Status bake_options_from_cli(const BakeCliOptions& cli, pipeline::BakeClipsOptions& out);

// Bakes `c` in place and prints the report lines to `out`.
rig::Status bake_and_print(rig::Character& c, const pipeline::BakeClipsOptions& o, pipeline::BakeClipsReport& report, std::FILE* out);

}  // namespace harness
