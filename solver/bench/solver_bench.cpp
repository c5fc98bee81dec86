// ns per joint per step with every feature on (spring, rope, carry, coupling,
// bend limit, forward plane, floor), chains of 4 and 8 bones, and a crowd of
// 10,000 tails. One "step" here is one internal step (frame dt = internal_step).
#include <benchmark/benchmark.h>

#include <vector>

#include "solver/batch.h"
#include "solver/solver.h"
#include "test_rig.h"

namespace {

using namespace solver;

void BM_Chain(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto rig = testing::make_rig(n, true, 0.8, 0.6);  // low hips: floor contact active
  ChainParams params;
  ChainDesc desc;
  build_chain(rig.input(), params, desc);
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> rot(static_cast<size_t>(n));
  reset(desc, params, st, testing::hip_swing(0.0, 0.6));
  double t = 0.0;
  for (auto _ : state) {
    t += params.internal_step;
    if (t > 1.4) t = 0.0;
    step(desc, params, st, params.internal_step, testing::hip_swing(t, 0.6), rot);
    benchmark::DoNotOptimize(rot.data());
  }
  // Same counters in every benchmark (the CSV reporter needs them); the rate
  // counter is in seconds per joint step (Google Benchmark rates are per second).
  state.counters["tails"] = 1;
  state.counters["seconds_per_joint_step"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * n, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Chain)->Arg(4)->Arg(8);

void BM_Crowd(benchmark::State& state) {
  const int tails = static_cast<int>(state.range(0));
  const int n = 4;
  const auto rig = testing::make_rig(n, true, 0.8, 0.6);
  ChainParams params;
  ChainDesc desc;
  build_chain(rig.input(), params, desc);
  std::vector<ChainState> crowd(static_cast<size_t>(tails));
  for (int k = 0; k < tails; ++k) {
    init_state(desc, crowd[static_cast<size_t>(k)]);
    params.reset_settle_time = 0.0;
    reset(desc, params, crowd[static_cast<size_t>(k)], testing::hip_swing(0.001 * (k % 1000), 0.6));
  }
  std::vector<Eigen::Quaterniond> rot(static_cast<size_t>(n));
  double t = 0.0;
  for (auto _ : state) {
    t += 1.0 / 60.0;
    if (t > 1.4) t = 0.0;
    for (int k = 0; k < tails; ++k) {
      step(desc, params, crowd[static_cast<size_t>(k)], 1.0 / 60.0,
           testing::hip_swing(t + 0.001 * (k % 1000), 0.6), rot);
      benchmark::DoNotOptimize(rot.data());
    }
  }
  state.counters["tails"] = tails;
  // Frame dt 1/60 s = 2 internal steps per tail per iteration.
  state.counters["seconds_per_joint_step"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * tails * n * 2,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Crowd)->Arg(10000)->Unit(benchmark::kMillisecond);

// The batch solver: `tails` chains of `bones` bones, every feature on, hips
// swinging (floor contact active), 60 fps frames (2 internal steps each).
// Arg 2: 0 = baseline lanes, 1 = AVX2 (when the CPU has it).
void BM_Batch(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int tails = static_cast<int>(state.range(1));
  const BatchIsa isa = state.range(2) ? BatchIsa::kAvx2 : BatchIsa::kBaseline;
  const auto rig = testing::make_rig(n, true, 0.8, 0.6);
  ChainParams params;
  ChainDesc desc;
  build_chain(rig.input(), params, desc);
  params.reset_settle_time = 0.0;  // setup time, not measured
  Batch batch(desc, params, tails, isa);
  // Hips of tail k at frame f: the swing at frame (f + k) mod 84, read from a
  // table so the caller's work is not measured.
  const int period = 84;
  std::vector<Eigen::Affine3d> table(static_cast<size_t>(tails + period));
  for (size_t j = 0; j < table.size(); ++j) table[j] = testing::hip_swing(static_cast<double>(j % period) / 60.0, 0.6);
  std::vector<Eigen::Quaternionf> rot(static_cast<size_t>(tails * n));
  batch.step(1.0 / 60.0, std::span(table).first(static_cast<size_t>(tails)), rot);
  int f = 0;
  for (auto _ : state) {
    f = (f + 1) % period;
    batch.step(1.0 / 60.0, std::span(table).subspan(static_cast<size_t>(f), static_cast<size_t>(tails)), rot);
    benchmark::DoNotOptimize(rot.data());
  }
  state.counters["tails"] = tails;
  state.counters["seconds_per_joint_step"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * tails * n * 2,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Batch)->Args({4, 1000, 0})->Args({4, 1000, 1})->Args({8, 10000, 0})->Args({8, 10000, 1})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
