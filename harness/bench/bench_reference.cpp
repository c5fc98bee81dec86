// The reference kernel of `harness bench` (see bench_reference.h).
#include "harness/bench/bench_reference.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "harness/bench/bench_collector.h"

namespace harness {
namespace {

typedef double D2 __attribute__((vector_size(16)));

constexpr double kH = 1.0 / 120.0;    // s
constexpr double kOmegaSq = 400.0;    // 1/s^2
constexpr double kDamping = 8.0;      // 1/s
constexpr double kGravityY = -9.81;   // m/s^2
constexpr double kLength = 0.25;      // m, rope length about the origin

// p, v and the targets of every point, x y z arrays.
struct Points {
  std::vector<double> p[3], v[3], t[3];
  Points() {
    for (int e = 0; e < 3; ++e) {
      p[e].resize(kReferencePoints);
      v[e].assign(kReferencePoints, 0.0);
      t[e].resize(kReferencePoints);
    }
    // Points and targets spread over the rope sphere (a fixed spiral).
    for (int i = 0; i < kReferencePoints; ++i) {
      const double z = 1.0 - 2.0 * (i + 0.5) / kReferencePoints, r = std::sqrt(1.0 - z * z);
      const double a = 2.399963229728653 * i;
      p[0][i] = kLength * r * std::cos(a), p[1][i] = kLength * z, p[2][i] = kLength * r * std::sin(a);
      t[0][i] = kLength * r * std::cos(a + 1.0), t[1][i] = kLength * z, t[2][i] = kLength * r * std::sin(a + 1.0);
    }
  }
};

inline D2 load(const std::vector<double>& a, int i) {
  D2 r;
  __builtin_memcpy(&r, a.data() + i, sizeof r);
  return r;
}
inline void store(std::vector<double>& a, int i, D2 x) { __builtin_memcpy(a.data() + i, &x, sizeof x); }
inline D2 vsqrt(D2 x) {
#ifdef __SSE2__
  return __builtin_ia32_sqrtpd(x);  // one sqrtpd, errno or not
#else
  return D2{__builtin_sqrt(x[0]), __builtin_sqrt(x[1])};
#endif
}

// One pass: targets turn by a fixed angle about Y, then every point takes
// one spring step, is put back on the rope sphere and loses its radial
// velocity.
void pass(Points& s, double c, double sn) {
  const D2 h = D2{} + kH, k = D2{} + kOmegaSq, damp = D2{} + kDamping, g = D2{} + kGravityY;
  const D2 len = D2{} + kLength, inv_len_sq = D2{} + 1.0 / (kLength * kLength), vc = D2{} + c, vs = D2{} + sn;
  for (int i = 0; i < kReferencePoints; i += 2) {
    const D2 tx0 = load(s.t[0], i), tz0 = load(s.t[2], i);
    const D2 tx = vc * tx0 + vs * tz0, ty = load(s.t[1], i), tz = vc * tz0 - vs * tx0;
    D2 px = load(s.p[0], i), py = load(s.p[1], i), pz = load(s.p[2], i);
    D2 vx = load(s.v[0], i), vy = load(s.v[1], i), vz = load(s.v[2], i);
    vx = vx + h * (k * (tx - px) - damp * vx);
    vy = vy + h * (k * (ty - py) - damp * vy + g);
    vz = vz + h * (k * (tz - pz) - damp * vz);
    px = px + h * vx, py = py + h * vy, pz = pz + h * vz;
    const D2 inv = len / vsqrt(px * px + py * py + pz * pz);  // never 0: |p| stays near kLength
    px = inv * px, py = inv * py, pz = inv * pz;
    const D2 radial = (vx * px + vy * py + vz * pz) * inv_len_sq;
    vx = vx - radial * px, vy = vy - radial * py, vz = vz - radial * pz;
    store(s.t[0], i, tx), store(s.t[2], i, tz);
    store(s.p[0], i, px), store(s.p[1], i, py), store(s.p[2], i, pz);
    store(s.v[0], i, vx), store(s.v[1], i, vy), store(s.v[2], i, vz);
  }
}

constexpr double kTurn = 0.002;  // rad per pass

}  // namespace

ReferenceResult run_reference_kernel(double min_time) {
  ReferenceResult r;
  benchmark::ClearRegisteredBenchmarks();
  auto* b = benchmark::RegisterBenchmark("reference", [](benchmark::State& state) {
    Points s;
    const double c = std::cos(kTurn), sn = std::sin(kTurn);
    for (auto _ : state) {
      pass(s, c, sn);
      benchmark::DoNotOptimize(s.p[0].data());
      benchmark::ClobberMemory();
    }
  });
  b->MinTime(min_time)->Unit(benchmark::kNanosecond);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  benchmark::ClearRegisteredBenchmarks();
  for (const auto& run : collector.runs) {
    if (run.error_occurred || run.iterations <= 0) continue;
    r.ran = true;
    r.iterations = run.iterations;
    r.cpu_ns_per_point = to_ns(run.GetAdjustedCPUTime(), run.time_unit) / kReferencePoints;
    r.real_ns_per_point = to_ns(run.GetAdjustedRealTime(), run.time_unit) / kReferencePoints;
  }
  return r;
}

}  // namespace harness
