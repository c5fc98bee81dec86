// Google Benchmark reporter of `harness bench`: collects the runs instead of
// printing Google Benchmark's own table.
#pragma once

#include <benchmark/benchmark.h>

#include <vector>

namespace harness {

class Collector : public benchmark::BenchmarkReporter {
 public:
  std::vector<Run> runs;
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& r) override { runs.insert(runs.end(), r.begin(), r.end()); }
};

}  // namespace harness
