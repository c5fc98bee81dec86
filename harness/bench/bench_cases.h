// The fixed benchmark cases of `harness bench` (issue 14) and their targets,
// run through Google Benchmark. Every case steps tails of the synthetic
// scenario rig (hips at 0.6 m: floor contact active) with every solver
// feature on through the SPEC §4 hip swing, in 60 fps frames (2 internal
// steps each); per tail the swing is shifted by one frame so the tails
// differ. "ns per joint-step" = CPU time per frame / (tails x bones x 2).
//
// The crowd (issue 47): 100,000 eight-bone tails on the batch solver split
// over 2 threads (Batch::set_threads), target one 60 fps frame (16.6 ms) on
// 2 cores. Its frame time is the CPU time of the busiest thread per frame
// (/proc/self/task/*/schedstat): what the frame takes on idle cores, without
// counting the neighbours a shared machine's wall clock would; its ns per
// joint-step is the CPU time of every thread.
#pragma once

#include <string>
#include <vector>

#include "solver/batch.h"

namespace harness {

struct BenchCase {
  std::string name;        // e.g. "batch_avx2/8x10000"
  std::string solver;      // "scalar" or "batch"
  std::string isa;         // "double" (scalar), "baseline", "avx2" or "avx512" (batch)
  int bones = 4;
  int tails = 1;
  double target_ns = 0.0;        // ns per joint-step, 0 = informational
  double target_frame_ms = 0.0;  // ms per 60 fps frame, 0 = none
  int threads = 1;               // Batch::set_threads
  // Leg colliders per tail (issue 46): 0, or 4 (thighs and shins moving
  // with the hips); the case's target is then `target_ratio` x the CPU ns
  // per joint-step of the case named `relative_to` (the same without).
  int capsules = 0;
  std::string relative_to = {};
  double target_ratio = 0.0;
};

struct BenchResult {
  BenchCase c;
  long long iterations = 0;
  double cpu_ns_per_joint_step = 0.0;
  double real_ns_per_joint_step = 0.0;
  double cpu_ms_per_frame = 0.0;     // every thread
  double thread_ms_per_frame = 0.0;  // the busiest thread (= cpu_ms_per_frame on one); the frame target's
  // cpu_ns_per_joint_step / relative_to's (0: not measured); for a case
  // with a target_ratio, of the fastest of 5 alternating runs of the two
  // (bench_cases.cpp interleaved_ratio: a shared machine's load moves a
  // single pair of runs by 20-30 %).
  double ratio_to_relative = 0.0;
  bool ran = false;    // false: skipped (e.g. CPU without AVX2)
  std::string note;    // why skipped
  // Every target of the case met (true when it has none).
  bool pass() const;
};

// The cases, in report order. The batch's best kernel on this CPU carries
// the targets (AVX-512, else AVX2, else baseline); rows for the kernels
// below it show what CPUs without it get. The colliders' case (4 capsules
// per tail) follows the collider-free one it is held to.
std::vector<BenchCase> bench_cases(solver::BatchIsa best);

// The crowd's target: 100,000 eight-bone tails in one 60 fps frame on 2 cores.
inline constexpr double kCrowdFrameMs = 16.6;

// Runs the cases with Google Benchmark; `min_time` seconds per case.
// Progress lines go to stdout.
std::vector<BenchResult> run_bench_cases(const std::vector<BenchCase>& cases, double min_time);

}  // namespace harness
