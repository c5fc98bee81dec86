// A harness subcommand: its CLI11 node and the action that runs it.
// Actions return the process exit code: 0 ok, 1 regression, 2 bad input/usage.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <functional>
#include <thread>

namespace harness {

enum ExitCode { kExitOk = 0, kExitRegression = 1, kExitBadInput = 2 };

// --jobs default of the parallel commands (run, batch): one per core, 1..64.
inline int default_jobs() { return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u)); }

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_info_command(CLI::App& root);
Command add_fixture_command(CLI::App& root);
Command add_list_command(CLI::App& root);
Command add_run_command(CLI::App& root);
Command add_fix_command(CLI::App& root);
Command add_strip_tail_command(CLI::App& root);
Command add_convert_command(CLI::App& root);
Command add_retarget_command(CLI::App& root);
Command add_bake_command(CLI::App& root);
Command add_pose_command(CLI::App& root);
Command add_stretch_command(CLI::App& root);
Command add_batch_command(CLI::App& root);
Command add_bench_command(CLI::App& root);  // with TAILRIG_BENCHMARKS (Google Benchmark)

}  // namespace harness
