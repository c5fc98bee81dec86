// Google Benchmark reporter of `harness bench`: collects the runs instead of
// printing Google Benchmark's own table.
#pragma once

#include <benchmark/benchmark.h>

#include <vector>

namespace harness {

// A run's time in nanoseconds, whatever unit the benchmark reports in.
inline double to_ns(double t, benchmark::TimeUnit unit) {
  switch (unit) {
    case benchmark::kNanosecond: return t;
    case benchmark::kMicrosecond: return t * 1e3;
    case benchmark::kMillisecond: return t * 1e6;
    case benchmark::kSecond: return t * 1e9;
  }
  return t;
}

class Collector : public benchmark::BenchmarkReporter {
 public:
  std::vector<Run> runs;
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& r) override { runs.insert(runs.end(), r.begin(), r.end()); }
};

}  // namespace harness
