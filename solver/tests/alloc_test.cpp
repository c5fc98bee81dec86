// step() must not allocate: a counting global operator new (this executable
// only) watches every allocation while the solver runs.
// GCC flags free() in a replaced operator delete as mismatched once inlined
// into callers; the pairing here is malloc/free by construction.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include "solver/batch.h"
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

TEST(Allocation, BatchStepAndResetDoNotAllocate) {
  const auto rig = testing::make_rig(8, true, 0.8, 0.6);  // low hips: floor contact
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const int count = 19;  // not a multiple of the lane width
  Batch batch(desc, ChainParams{}, count);
  std::vector<Eigen::Affine3d> hips(count);
  std::vector<Eigen::Quaternionf> rot(count * 8);
  std::vector<Eigen::Vector3f> points(9);
  const long before = g_allocations.load();
  for (int f = 0; f < 400; ++f) {
    for (int c = 0; c < count; ++c) hips[static_cast<size_t>(c)] = testing::hip_swing(f * 0.01 + 0.05 * c, 0.6);
    if (f == 100) hips[3].translation().x() = 50.0;                       // teleport
    if (f == 200) hips[5].translation().y() = std::nan("");               // rejected
    if (f == 300) batch.reset(7, testing::hip_swing(0.0, 0.6));           // re-spawn
    batch.step((f % 2) ? 1.0 / 30.0 : 1.0 / 144.0, hips, rot);
    batch.points(f % count, points);
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_EQ(batch.teleports(3), 2);  // there and back
  EXPECT_EQ(batch.rejected_hips(5), 1);
}

// Worker threads (issue 47) are started by set_threads(); the steps on them
// allocate nothing either.
TEST(Allocation, ThreadedBatchStepDoesNotAllocate) {
  const auto rig = testing::make_rig(8, true, 0.8, 0.6);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const int count = 45;
  Batch batch(desc, ChainParams{}, count);
  batch.set_threads(3);
  ASSERT_EQ(batch.threads(), 3);
  std::vector<Eigen::Affine3d> hips(count);
  std::vector<Eigen::Quaternionf> rot(count * 8);
  const long before = g_allocations.load();
  for (int f = 0; f < 200; ++f) {
    for (int c = 0; c < count; ++c) hips[static_cast<size_t>(c)] = testing::hip_swing(f * 0.01 + 0.05 * c, 0.6);
    if (f == 100) hips[30].translation().y() = std::nan("");  // rejected, on a worker's block
    batch.step(1.0 / 60.0, hips, rot);
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_EQ(batch.rejected_hips(30), 1);
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
