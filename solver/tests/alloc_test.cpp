// step() must not allocate: a counting global operator new (this executable
// only) watches every allocation while the solver runs.
// GCC flags free() in a replaced operator delete as mismatched once inlined
// into callers; the pairing here is malloc/free by construction.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include "solver/batch.h"
#include "solver/solver.h"
#include "solver/tailrig_batch.h"
#include "solver/tailrig_solver.h"
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

// The test rig as a C API chain (its arrays copied by tailrig_chain_create;
// set-up, before any allocation is counted).
tailrig_status c_api_chain_of(const testing::TestRig& rig, tailrig_chain** chain) {
  std::vector<const char*> names;
  for (const std::string& name : rig.names) names.push_back(name.c_str());
  std::vector<double> ibm;
  for (const Eigen::Matrix4d& m : rig.inverse_bind) ibm.insert(ibm.end(), m.data(), m.data() + 16);
  return tailrig_chain_create(names.data(), rig.parents.data(), ibm.data(), static_cast<int32_t>(names.size()),
                              -1, nullptr, chain);
}

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

// Idle sway (issue 46): a standing tail swaying in the scalar step and in
// the batch (its per-lane sway computed on the stack, on worker threads too)
// allocates nothing.
TEST(Allocation, IdleSwayStepsDoNotAllocate) {
  const auto rig = testing::make_rig(8);
  const ChainParams params = idle_sway(ChainParams{});
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  ChainState st;
  init_state(desc, st);
  std::vector<Eigen::Quaterniond> rot(8);
  const int count = 21;
  Batch batch(desc, params, count);
  batch.set_threads(2);
  std::vector<Eigen::Affine3d> hips(count);
  std::vector<Eigen::Quaternionf> batch_rot(count * 8);
  const long before = g_allocations.load();
  for (int f = 0; f < 300; ++f) {
    const auto standing =
        testing::hips_pose(Eigen::Vector3d(0.0, 1.0 + 0.004 * std::sin(0.05 * f), 0.0), 0.0);
    step(desc, params, st, 1.0 / 60.0, standing, rot);
    for (auto& h : hips) h = standing;
    batch.step(1.0 / 60.0, hips, batch_rot);
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_NEAR(st.sway_time, 5.0, 1e-9) << "the sway's clock ran: 300 frames of 1/60 s";
}

// The batch C API (tailrig_batch.h): hips converted into the handle's
// arrays, output copied out; after create, set_threads and
// set_collider_capacity neither steps (with colliders or not), read-outs
// nor a reset allocate.
TEST(Allocation, BatchCApiStepDoesNotAllocate) {
  const auto rig = testing::make_rig(8, true, 0.8, 0.6);
  tailrig_chain* chain = nullptr;
  ASSERT_EQ(c_api_chain_of(rig, &chain), TAILRIG_OK);
  const int count = 45;
  tailrig_batch* batch = nullptr;
  ASSERT_EQ(tailrig_batch_create(chain, count, &batch), TAILRIG_OK);
  ASSERT_EQ(tailrig_batch_set_threads(batch, 2), TAILRIG_OK);
  std::vector<double> hips(16 * count);
  std::vector<float> rot(4 * 8 * count);
  const long before = g_allocations.load();
  for (int f = 0; f < 200; ++f) {
    for (int c = 0; c < count; ++c) {
      const Eigen::Matrix4d m = testing::hip_swing(f * 0.01 + 0.05 * c, 0.6).matrix();
      std::copy(m.data(), m.data() + 16, hips.begin() + 16 * c);
    }
    ASSERT_EQ(tailrig_batch_step(batch, 1.0 / 60.0, hips.data(), count), TAILRIG_OK);
    ASSERT_EQ(tailrig_batch_local_rotations(batch, rot.data(), 8 * count), TAILRIG_OK);
  }
  ASSERT_EQ(tailrig_batch_reset(batch, 3, hips.data()), TAILRIG_OK);
  EXPECT_EQ(g_allocations.load() - before, 0) << "steps, read-outs or the reset allocated";
  // With colliders: capsules copied into the slots set_collider_capacity made.
  ASSERT_EQ(tailrig_batch_set_collider_capacity(batch, 2), TAILRIG_OK);
  std::vector<tailrig_frame_input> frames(count);
  tailrig_capsule leg[2] = {{{0.06, -1.0, -0.45}, {0.06, 1.0, -0.45}, 0.08, 0.08},
                            {{0.06, -1.0, -0.45}, {0.06, -1.0, -0.45}, 0.05, 0.05}};
  const long before_frames = g_allocations.load();
  for (int c = 0; c < count; ++c) {
    tailrig_frame_input_default(&frames[static_cast<size_t>(c)]);
    std::copy(hips.begin() + 16 * c, hips.begin() + 16 * c + 16, frames[static_cast<size_t>(c)].hips_world);
    frames[static_cast<size_t>(c)].capsules = leg;
    frames[static_cast<size_t>(c)].capsule_count = 2;
  }
  for (int f = 0; f < 50; ++f)
    ASSERT_EQ(tailrig_batch_step_frames(batch, 1.0 / 60.0, frames.data(), count), TAILRIG_OK);
  EXPECT_EQ(g_allocations.load() - before_frames, 0) << "steps with colliders allocated";
  tailrig_batch_destroy(batch);
  tailrig_chain_destroy(chain);
}

// A leg the swinging tail runs into (fixed in the hips frame, crossing the
// carry arc) and a sphere at its foot, where they are for these hips.
std::array<Capsule, 2> legs_at(const Eigen::Affine3d& hips) {
  const Eigen::Vector3d top = hips * Eigen::Vector3d(0.06, 1.0, -0.45);
  const Eigen::Vector3d foot = hips * Eigen::Vector3d(0.06, -1.0, -0.45);
  return {Capsule{foot, top, 0.08, 0.08}, Capsule{foot, foot, 0.05, 0.05}};
}

// Colliders (issue 46): the scalar step with a FrameInput and the C API's
// tailrig_chain_step_frame (checks and capsules converted on the stack)
// allocate nothing either, while the tail is pushed out of the leg.
TEST(Allocation, ColliderStepsDoNotAllocate) {
  const auto rig = testing::make_rig(8, true);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  ChainState st, free_st;
  init_state(desc, st);
  init_state(desc, free_st);
  std::vector<Eigen::Quaterniond> rot(8);
  ChainParams params;

  tailrig_chain* chain = nullptr;
  ASSERT_EQ(c_api_chain_of(rig, &chain), TAILRIG_OK);
  tailrig_frame_input in;
  tailrig_frame_input_default(&in);
  std::array<double, 8 * 4> c_rot{};

  bool pushed = false;  // the leg changed the pose at least once
  const long before = g_allocations.load();
  for (int f = 0; f < 400; ++f) {
    const double dt = (f % 2) ? 1.0 / 30.0 : 1.0 / 144.0;
    const Eigen::Affine3d hips =
        f == 399 ? testing::hips_pose(Eigen::Vector3d(20, 1, 0), 1.0)  // teleport
                 : testing::hip_swing(f * 0.01, 1.0);
    const std::array<Capsule, 2> legs = legs_at(hips);
    step(desc, params, st, dt, FrameInput{hips, legs}, rot);
    step(desc, params, free_st, dt, hips, {});
    pushed = pushed || !st.out_local[7].isApprox(free_st.out_local[7], 1e-6);

    tailrig_capsule c_legs[2];
    for (size_t k = 0; k < 2; ++k) {
      for (int i = 0; i < 3; ++i) {
        c_legs[k].a[i] = legs[k].a[i];
        c_legs[k].b[i] = legs[k].b[i];
      }
      c_legs[k].radius_a = legs[k].radius_a;
      c_legs[k].radius_b = legs[k].radius_b;
    }
    Eigen::Map<Eigen::Matrix4d>(in.hips_world) = hips.matrix();
    in.capsules = c_legs;
    in.capsule_count = 2;
    ASSERT_EQ(tailrig_chain_step_frame(chain, dt, &in), TAILRIG_OK);
    ASSERT_EQ(tailrig_chain_local_rotations(chain, c_rot.data(), 8), TAILRIG_OK);
  }
  const long after = g_allocations.load();
  EXPECT_EQ(after - before, 0);
  EXPECT_TRUE(pushed) << "the leg never touched the tail: the collider path was not exercised";
  tailrig_chain_destroy(chain);
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
