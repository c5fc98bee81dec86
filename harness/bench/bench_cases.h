// The fixed benchmark cases of `harness bench` (issue 14) and their targets,
// run through Google Benchmark. Every case steps tails of the synthetic
// scenario rig (hips at 0.6 m: floor contact active) with every solver
// feature on through the SPEC §4 hip swing, in 60 fps frames (2 internal
// steps each); per tail the swing is shifted by one frame so the tails
// differ. "ns per joint-step" = CPU time per frame / (tails x bones x 2).
#pragma once

#include <string>
#include <vector>

namespace harness {

struct BenchCase {
  std::string name;        // e.g. "batch_avx2/8x10000"
  std::string solver;      // "scalar" or "batch"
  std::string isa;         // "double" (scalar), "baseline" or "avx2" (batch)
  int bones = 4;
  int tails = 1;
  double target_ns = 0.0;        // ns per joint-step, 0 = informational
  double target_frame_ms = 0.0;  // ms per 60 fps frame, 0 = none
};

struct BenchResult {
  BenchCase c;
  long long iterations = 0;
  double cpu_ns_per_joint_step = 0.0;
  double real_ns_per_joint_step = 0.0;
  double cpu_ms_per_frame = 0.0;
  bool ran = false;    // false: skipped (e.g. CPU without AVX2)
  std::string note;    // why skipped
  // Every target of the case met (true when it has none).
  bool pass() const;
};

// The cases, in report order. The batch's auto-dispatched kernel carries the
// targets (AVX2 when present); the baseline rows show what any x86-64 gets.
std::vector<BenchCase> bench_cases(bool have_avx2);

// Runs the cases with Google Benchmark; `min_time` seconds per case.
// Progress lines go to stdout.
std::vector<BenchResult> run_bench_cases(const std::vector<BenchCase>& cases, double min_time);

}  // namespace harness
