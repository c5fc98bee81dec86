// The reference kernel of `harness bench` (issue 47): a fixed amount of
// work of the solver's kind, timed in the same run as the cases, so that
// each case can also be stated as a ratio to it. A slower machine (clock,
// an older core, a busy neighbour on the host) slows the reference and the
// cases alike and leaves the ratios where they were; a regression in our
// code moves the ratio.
//
// The kernel: a semi-implicit Euler spring with a rope constraint, the shape
// of one joint-step of the batch solver, on structure-of-arrays doubles:
// kReferencePoints points (9 arrays, 4.5 MB: beyond L2, inside L3, like the
// 10,000-tail batch state) pulled towards targets that turn a little every
// pass, so nothing decays to subnormals. Written with 2-wide double vectors
// (SSE2, any x86-64) so every build and every CPU of the kind does the same
// instructions whatever the compiler flags; no FMA contraction.
#pragma once

namespace harness {

inline constexpr int kReferencePoints = 1 << 16;

struct ReferenceResult {
  long long iterations = 0;     // passes over the points
  double cpu_ns_per_point = 0;  // CPU ns per point-step
  double real_ns_per_point = 0;
  bool ran = false;
};

// Times the kernel with Google Benchmark for at least `min_time` seconds.
ReferenceResult run_reference_kernel(double min_time);

}  // namespace harness
