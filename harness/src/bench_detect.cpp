// `harness bench --detect` (see bench_detect.h).
#include "bench_detect.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <utility>

#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/io.h"

namespace harness {
namespace {

class Collector : public benchmark::BenchmarkReporter {
 public:
  std::vector<Run> runs;
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& r) override { runs.insert(runs.end(), r.begin(), r.end()); }
};

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
      std::printf("  %-10s %8d vertices  load %7.3f s  fix %7.3f s  save %7.3f s  total %7.3f s CPU  (%d chain%s)\n",
                  c.name.c_str(), r.vertices, r.load_s, r.fix_s, r.save_s, r.total_s(), r.chains,
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
