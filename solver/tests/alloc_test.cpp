// step() must not allocate: a counting global operator new (this executable
// only) watches every allocation while the solver runs.
// GCC flags free() in a replaced operator delete as mismatched once inlined
// into callers; the pairing here is malloc/free by construction.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "solver/solver.h"
#include "test_rig.h"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace solver {
namespace {

TEST(Allocation, StepAndResetDoNotAllocate) {
  for (bool with_end : {true, false}) {
    const auto rig = testing::make_rig(8, with_end);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    ChainState st;
    init_state(desc, st);
    std::vector<Eigen::Quaterniond> rot(8);
    ChainParams params;  // every feature on
    const long before = g_allocations.load();
    reset(desc, params, st, testing::hip_swing(0.0, 0.5));
    for (int f = 0; f < 400; ++f) {
      const double dt = (f % 2) ? 1.0 / 30.0 : 1.0 / 144.0;
      step(desc, params, st, dt, testing::hip_swing(f * 0.01, 0.5), rot);
    }
    step(desc, params, st, 1.0 / 60.0, testing::hips_pose(Eigen::Vector3d(20, 1, 0), 1.0), rot);
    const long after = g_allocations.load();
    EXPECT_EQ(after - before, 0);
  }
}

TEST(Allocation, CounterWorks) {
  const long before = g_allocations.load();
  {
    std::vector<int> v(100);
    EXPECT_EQ(v.size(), 100u);
  }
  EXPECT_GE(g_allocations.load() - before, 1);
}

}  // namespace
}  // namespace solver
