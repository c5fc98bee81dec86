// `harness bench --detect` (see bench_detect.h).
#include "harness/bench/bench_detect.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <utility>

#include "harness/bench/bench_collector.h"
#include "harness/cli/allocator.h"
#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/io/io.h"

namespace harness {
namespace {

// CPU seconds per iteration of `body` (process CPU time: user + system);
// `setup` runs before each iteration, untimed.
double time_phase(const std::string& name, double min_time, const std::function<void()>& body,
                  long long* iterations = nullptr, const std::function<void()>& setup = {}) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(name.c_str(), [&body, &setup](benchmark::State& s) {
    for (auto _ : s) {
      if (setup) {
        s.PauseTiming();
        setup();
        s.ResumeTiming();
      }
      body();
    }
  })->MinTime(min_time)->MeasureProcessCPUTime()->Unit(benchmark::kSecond);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
  for (const auto& run : collector.runs) {
    if (run.error_occurred || run.iterations <= 0) continue;
    if (iterations) *iterations = run.iterations;
    return run.GetAdjustedCPUTime();  // in the registered unit: seconds
  }
  return 0.0;
}

// CPU seconds (user + system, from wait4) of one fresh `harness fix IN --out
// OUT` process: what a user's command costs, page faults of a cold process
// included. Negative when it could not run.
double fix_command_seconds(const std::string& in, const std::string& out) {
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return -1.0;
  std::vector<std::string> args = {self, "fix", in, "--out", out};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1.0;
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1.0;
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(ru.ru_utime) + seconds(ru.ru_stime);
}

// The mean of fix_command_seconds over `runs` fresh processes, through
// Google Benchmark's manual time.
double time_command(const std::string& name, const std::string& in, const std::string& out, int runs,
                    std::string& error) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(name.c_str(), [&](benchmark::State& s) {
    for (auto _ : s) {
      const double t = fix_command_seconds(in, out);
      if (t < 0) {
        s.SkipWithError("harness fix failed");
        break;
      }
      s.SetIterationTime(t);
    }
  })->Iterations(runs)->UseManualTime()->Unit(benchmark::kSecond);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
  for (const auto& run : collector.runs)
    if (!run.error_occurred && run.iterations > 0) return run.GetAdjustedRealTime();
  error = "harness fix " + in + " did not run";
  return 0.0;
}

}  // namespace

std::vector<DetectBenchCase> detect_bench_cases(bool quick) {
  if (quick) return {{"fox/5k", 0.45}, {"fox/11k", 0.67}};
  return {{"fox/11k", 0.67}, {"fox/34k", 1.2}, {"fox/100k", 2.1}, {"fox/330k", 3.8}, {"fox/1M", 6.7}};
}

std::vector<DetectBenchResult> run_detect_bench(const std::vector<DetectBenchCase>& cases,
                                                const std::string& work_dir, double min_time) {
  std::vector<DetectBenchResult> results;
  std::error_code ec;
  std::filesystem::create_directories(work_dir, ec);
  for (const DetectBenchCase& c : cases) {
    DetectBenchResult r;
    r.c = c;
    fixtures::FixtureParams p = fixtures::default_params("fox");
    p.density = c.density;
    rig::Character made;
    std::string error;
    const std::string in = work_dir + "/" + std::to_string(static_cast<int>(std::lround(c.density * 100))) + ".glb";
    const std::string out = in + ".fixed.glb";
    if (!fixtures::make_fixture("fox", p, made, &error)) {
      r.error = "fixture: " + error;
    } else if (rig::Status s = rig::save_glb(made, in); !s.ok()) {
      r.error = s.message;
    }
    made = rig::Character{};
    // The command first, while this process holds little memory: a parent
    // holding the warm phases' gigabyte made the child's huge pages slower.
    // Its freed pages go back to the kernel too (the allocator keeps them
    // otherwise): the child then runs on pages just freed, as after any
    // other command from a shell, where it took fresh ones the host had to
    // back and the kernel to zero (0.87-1.16 s where a shell measured
    // 0.51-0.56 s; posix_spawn already avoids copying this process).
    release_free_memory();
    if (r.error.empty()) r.command_s = time_command(c.name + "/command", in, out, 3, r.error);
    if (r.error.empty()) {
      rig::Character loaded;
      r.load_s = time_phase(c.name + "/load", min_time, [&] {
        loaded = rig::Character{};
        rig::Status s = rig::load(in, loaded);
        if (!s.ok()) r.error = s.message;
      });
      r.vertices = loaded.mesh.vertex_count();
      r.triangles = static_cast<int>(loaded.mesh.triangles.size());
      detect::FixResult fixed;
      const detect::Params params;
      rig::Character input;  // `harness fix` hands its loaded character over: no copy is timed
      if (r.error.empty()) {
        r.fix_s = time_phase(
            c.name + "/fix", min_time,
            [&] {
              rig::Status s = detect::fix(std::move(input), detect::Mode::kChain, params, fixed);
              if (!s.ok()) r.error = s.message;
            },
            &r.iterations,
            [&] {
              fixed = detect::FixResult{};
              input = loaded;
            });
        r.chains = fixed.chains;
      }
      if (r.error.empty()) {
        r.save_s = time_phase(c.name + "/save", min_time, [&] {
          rig::Status s = rig::save_glb(fixed.character, out);
          if (!s.ok()) r.error = s.message;
        });
      }
    }
    std::filesystem::remove(in, ec);
    std::filesystem::remove(out, ec);
    if (r.error.empty()) {
      std::printf("  %-10s %8d vertices  load %6.3f  fix %6.3f  save %6.3f  (sum %6.3f)  command %6.3f s CPU  (%d chain%s)\n",
                  c.name.c_str(), r.vertices, r.load_s, r.fix_s, r.save_s, r.total_s(), r.command_s, r.chains,
                  r.chains == 1 ? "" : "s");
    } else {
      std::printf("  %-10s failed: %s\n", c.name.c_str(), r.error.c_str());
    }
    std::fflush(stdout);
    results.push_back(r);
  }
  return results;
}

double growth_exponent(const std::vector<DetectBenchResult>& rs) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const DetectBenchResult& r : rs) {
    if (!r.error.empty() || r.vertices <= 0 || !(r.total_s() > 0)) continue;
    const double x = std::log(r.vertices), y = std::log(r.total_s());
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double d = n * sxx - sx * sx;
  return (n >= 2 && d > 0) ? (n * sxy - sx * sy) / d : 0.0;
}

}  // namespace harness
