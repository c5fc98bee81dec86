// Batch (issue 14) against the scalar reference: the same hips into both,
// every feature on, and the displayed chain points compared in % of H.
// H is the model height; for the synthetic rigs (hips at hips_height) it is
// taken as 2 x hips_height, a biped's hips sitting at about half its height.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "solver/batch.h"
#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using Eigen::Affine3d;
using Eigen::Quaterniond;
using Eigen::Quaternionf;
using Eigen::Vector3d;
using Eigen::Vector3f;

// Points agree within this fraction of H over 10 s of the motions below
// (measured worst case printed by the tests; see the issue 14 report) --
// or within twice the scalar solver's own sensitivity, whichever is larger:
// a long tail dragged over the floor through teleports and turns takes
// different contact branches when its hips move by a micrometre (float
// rounding of the hips is about that), in the double-precision reference
// too. The sensitivity is measured, not assumed: the scalar solver against
// itself with the hips moved by 1 um.
constexpr double kMaxPointError = 0.01;  // 1 % of H
constexpr double kHipsNudge = 1e-6;      // metres

// Smooth random hips motion: sums of sines with random phases per chain,
// crouching to hips_height * 0.35 (tail on the floor) and turning; a
// teleport (3 m jump and a 120 deg turn) at 4 s and 7.5 s.
struct RandomHips {
  double height = 1.0;
  double phase[6] = {};
  double amp[6] = {};
  explicit RandomHips(std::uint32_t seed, double hips_height) : height(hips_height) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int k = 0; k < 6; ++k) {
      phase[k] = 2.0 * M_PI * u(rng);
      amp[k] = 0.5 + u(rng);
    }
  }
  Affine3d operator()(double t) const {
    const double jump = (t >= 4.0 ? 3.0 : 0.0) + (t >= 7.5 ? -2.0 : 0.0);
    const double turn = (t >= 4.0 ? 2.1 : 0.0) + (t >= 7.5 ? 2.1 : 0.0);
    const double crouch = 0.5 * (1.0 + std::sin(1.3 * t + phase[0]));  // 0..1
    const Vector3d pos(0.4 * amp[1] * std::sin(2.1 * t + phase[1]) + jump,
                       height * (1.0 - 0.65 * crouch),
                       0.3 * amp[2] * std::sin(1.7 * t + phase[2]));
    Affine3d a = testing::hips_pose(pos, turn + 0.8 * amp[3] * std::sin(2.9 * t + phase[3]));
    a.rotate(Eigen::AngleAxisd(0.25 * amp[4] * std::sin(3.7 * t + phase[4]), Vector3d::UnitX()));
    a.rotate(Eigen::AngleAxisd(0.2 * amp[5] * std::sin(2.3 * t + phase[5]), Vector3d::UnitZ()));
    return a;
  }
};

struct Comparison {
  double max_point_error = 0.0;  // metres
  double sum_point_error = 0.0;  // metres, over chains, frames and points
  long samples = 0;
  double scalar_sensitivity = 0.0;  // metres: scalar vs scalar with nudged hips
  int contact_frames = 0;        // frames with a scalar particle on the floor
  int teleports = 0;
  bool finite = true;
};

// Steps `count` chains in one Batch and one scalar ChainState per chain on
// the same hips for `seconds` at `fps`; compares FK points every frame.
Comparison compare(const ChainDesc& desc, const ChainParams& params, int count, double hips_height, double fps,
                   double seconds, BatchIsa isa = BatchIsa::kAuto) {
  const int n = desc.size();
  Batch batch(desc, params, count, isa);
  std::vector<ChainState> scalar(static_cast<size_t>(count)), nudged(static_cast<size_t>(count));
  std::vector<RandomHips> motion;
  for (int c = 0; c < count; ++c) {
    init_state(desc, scalar[static_cast<size_t>(c)]);
    init_state(desc, nudged[static_cast<size_t>(c)]);
    motion.emplace_back(1234u + static_cast<std::uint32_t>(c), hips_height);
  }
  std::vector<Affine3d> hips(static_cast<size_t>(count));
  std::vector<Quaternionf> out(static_cast<size_t>(count * n));
  std::vector<Quaterniond> rot(static_cast<size_t>(n));
  std::vector<Vector3f> pts(static_cast<size_t>(n + 1));
  Comparison r;
  const int frames = static_cast<int>(std::lround(seconds * fps));
  for (int f = 0; f <= frames; ++f) {
    const double t = f / fps;
    for (int c = 0; c < count; ++c) hips[static_cast<size_t>(c)] = motion[static_cast<size_t>(c)](t);
    const double dt = f == 0 ? 0.0 : 1.0 / fps;
    batch.step(dt, hips, out);
    for (int c = 0; c < count; ++c) {
      ChainState& st = scalar[static_cast<size_t>(c)];
      step(desc, params, st, dt, hips[static_cast<size_t>(c)], rot);
      ChainState& other = nudged[static_cast<size_t>(c)];
      Affine3d nudge = hips[static_cast<size_t>(c)];
      nudge.translation().x() += kHipsNudge;
      step(desc, params, other, dt, nudge, rot);
      batch.points(c, pts);
      bool contact = false;
      for (int i = 0; i <= n; ++i) {
        const size_t u = static_cast<size_t>(i);
        if (!pts[u].allFinite()) r.finite = false;
        const double e = (pts[u].cast<double>() - st.points[u]).norm();
        r.max_point_error = std::max(r.max_point_error, e);
        r.sum_point_error += e;
        ++r.samples;
        r.scalar_sensitivity = std::max(r.scalar_sensitivity, (other.points[u] - st.points[u]).norm() - kHipsNudge);
        if (i < n) {
          contact = contact || st.contact[u];
          if (!out[static_cast<size_t>(c * n + i)].coeffs().allFinite()) r.finite = false;
        }
      }
      if (contact) ++r.contact_frames;
    }
  }
  for (int c = 0; c < count; ++c) r.teleports += batch.teleports(c);
  return r;
}

TEST(Batch, MatchesScalarReferenceOnScenarioChains) {
  struct Case {
    int bones;
    bool with_end;
    bool twist;
    double hips_height;
  };
  const Case cases[] = {{1, true, false, 1.0}, {2, true, false, 1.0}, {4, true, false, 1.0}, {8, true, false, 1.0},
                        {4, false, false, 1.0}, {5, true, true, 1.0},  {3, false, true, 0.8}, {8, true, false, 0.6}};
  double worst = 0.0;
  int contact_frames = 0;
  for (const Case& k : cases) {
    const auto rig = testing::make_rig(k.bones, k.with_end, 0.8, k.hips_height, k.twist);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    const double H = 2.0 * k.hips_height;
    const Comparison r = compare(desc, ChainParams{}, 11, k.hips_height, 60.0, 10.0);
    EXPECT_TRUE(r.finite);
    if (k.bones >= 4) {
      EXPECT_GT(r.contact_frames, 0) << "the motion must put the tail on the floor";
    }
    contact_frames += r.contact_frames;
    EXPECT_EQ(r.teleports, 2 * 11);
    const double rel = r.max_point_error / H, sens = r.scalar_sensitivity / H;
    worst = std::max(worst, rel);
    EXPECT_LT(rel, std::max(kMaxPointError, 2.0 * sens)) << k.bones << " bones, end " << k.with_end << ", twist " << k.twist;
    std::printf(
        "[batch vs scalar] %d bones end=%d twist=%d hips %.1f m, 11 chains x 10 s: point difference max %.4f %%, "
        "mean %.5f %% of H; scalar vs scalar with hips +1 um: %.4f %% of H\n",
        k.bones, k.with_end, k.twist, k.hips_height, 100.0 * rel, 100.0 * r.sum_point_error / r.samples / H,
        100.0 * sens);
  }
  EXPECT_GT(contact_frames, 1000);
  std::printf("[batch vs scalar] worst: %.4f %% of H over 10 s\n", 100.0 * worst);
}

TEST(Batch, MatchesScalarAtOtherFrameRates) {
  const auto rig = testing::make_rig(4, true, 0.8, 1.0);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  for (double fps : {30.0, 144.0, 24.0}) {
    const Comparison r = compare(desc, ChainParams{}, 3, 1.0, fps, 10.0);
    EXPECT_TRUE(r.finite);
    EXPECT_LT(r.max_point_error / 2.0, kMaxPointError) << fps << " fps";
    std::printf("[batch vs scalar] 4 bones at %.0f fps: max point difference %.4f %% of H\n", fps,
                100.0 * r.max_point_error / 2.0);
  }
}

// Every kernel (SSE2 4 lanes, AVX2 8, AVX-512 16 per instruction) runs the
// same per-lane operations: the same bits. Kernels the CPU lacks are skipped
// (said so); the one in use is the reference for the others.
TEST(Batch, EveryIsaGivesTheSameBits) {
  const auto rig = testing::make_rig(4, true, 0.8, 0.6);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const int count = 37;  // 3 blocks, the last one partial
  std::vector<Batch> batches;
  for (BatchIsa isa : {BatchIsa::kBaseline, BatchIsa::kAvx2, BatchIsa::kAvx512}) {
    Batch b(desc, ChainParams{}, count, isa);
    if (b.isa() != isa) {
      std::printf("[isa] CPU without %s: not compared\n", batch_isa_name(isa));
      continue;
    }
    batches.push_back(std::move(b));
  }
  EXPECT_EQ(batches.front().isa(), BatchIsa::kBaseline);
  std::printf("[isa] comparing %zu kernels\n", batches.size());
  std::vector<Affine3d> hips(count);
  std::vector<std::vector<Quaternionf>> q(batches.size(), std::vector<Quaternionf>(count * 4));
  for (int f = 0; f < 600; ++f) {
    for (int c = 0; c < count; ++c) hips[static_cast<size_t>(c)] = RandomHips(7u + c, 0.6)(f / 60.0);
    for (size_t k = 0; k < batches.size(); ++k) batches[k].step(f % 5 == 2 ? 1.0 / 144.0 : 1.0 / 60.0, hips, q[k]);
    for (size_t k = 1; k < batches.size(); ++k)
      for (size_t e = 0; e < q[0].size(); ++e)
        ASSERT_EQ(std::memcmp(q[0][e].coeffs().data(), q[k][e].coeffs().data(), 4 * sizeof(float)), 0)
            << batch_isa_name(batches[k].isa()) << " vs baseline, frame " << f << ", output " << e;
  }
  for (size_t k = 1; k < batches.size(); ++k)
    for (int c = 0; c < count; ++c)
      for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(batches[k].position(c, i), batches[0].position(c, i));
        ASSERT_EQ(batches[k].velocity(c, i), batches[0].velocity(c, i));
      }
}

TEST(Batch, Deterministic) {
  const auto rig = testing::make_rig(8);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  Batch a(desc, ChainParams{}, 9), b(desc, ChainParams{}, 9);
  std::vector<Affine3d> hips(9);
  std::vector<Quaternionf> qa(9 * 8), qb(9 * 8);
  for (int f = 0; f < 300; ++f) {
    for (int c = 0; c < 9; ++c) hips[static_cast<size_t>(c)] = RandomHips(99u + c, 1.0)(f / 60.0);
    a.step(1.0 / 60.0, hips, qa);
    b.step(1.0 / 60.0, hips, qb);
  }
  for (size_t k = 0; k < qa.size(); ++k) ASSERT_EQ(qa[k].coeffs(), qb[k].coeffs());
}

// Issue 47: set_threads() splits the blocks over threads; every block is
// computed the same way on any thread, so 1, 2, 3 and 7 threads give the
// same bits: outputs every frame, then positions, velocities, contacts,
// teleports and rejections. 203 chains = 13 blocks (the last one partial),
// uneven ranges for 2, 3 and 7 threads; frames of mixed length, a teleport
// (RandomHips at 4 s), NaN hips for some chains and a re-spawn.
TEST(Batch, SameBitsForAnyThreadCount) {
  const auto rig = testing::make_rig(8, true, 0.8, 0.6);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const int count = 203, n = 8;
  ChainParams params;
  params.reset_settle_time = 0.25;  // resets (per-thread scratch) stay in, shorter
  std::vector<RandomHips> motion;
  for (int c = 0; c < count; ++c) motion.emplace_back(500u + static_cast<std::uint32_t>(c), 0.6);
  struct Run {
    std::vector<Quaternionf> out;  // every frame, concatenated
    std::vector<float> state;
    std::vector<int> counts;
    int threads = 0;
  };
  auto run = [&](int threads) {
    Batch batch(desc, params, count);
    batch.set_threads(threads);
    Run r;
    r.threads = batch.threads();
    std::vector<Affine3d> hips(static_cast<size_t>(count));
    std::vector<Quaternionf> out(static_cast<size_t>(count * n));
    double t = 0.0;
    for (int f = 0; f < 300; ++f) {
      const double dt = (f % 3 == 1) ? 1.0 / 144.0 : 1.0 / 60.0;
      t += dt;
      for (int c = 0; c < count; ++c) hips[static_cast<size_t>(c)] = motion[static_cast<size_t>(c)](t);
      if (f % 50 == 25)
        for (int c = f % 7; c < count; c += 31) hips[static_cast<size_t>(c)](1, 3) = std::nan("");
      if (f == 150) batch.reset(77, motion[77](0.0));
      batch.step(dt, hips, out);
      r.out.insert(r.out.end(), out.begin(), out.end());
    }
    for (int c = 0; c < count; ++c) {
      for (int i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k) r.state.push_back(batch.position(c, i)[k]), r.state.push_back(batch.velocity(c, i)[k]);
        r.state.push_back(batch.contact(c, i) ? 1.0f : 0.0f);
      }
      r.counts.push_back(batch.teleports(c));
      r.counts.push_back(batch.rejected_hips(c));
    }
    return r;
  };
  auto bits = [](const std::vector<float>& v) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the float bits
    for (float x : v) {
      std::uint32_t u;
      std::memcpy(&u, &x, sizeof u);
      h = (h ^ u) * 1099511628211ull;
    }
    return h;
  };
  const Run one = run(1);
  EXPECT_EQ(one.threads, 1);
  int teleports = 0, rejected = 0;
  for (size_t k = 0; k < one.counts.size(); k += 2) teleports += one.counts[k], rejected += one.counts[k + 1];
  EXPECT_GE(teleports, count);  // every chain teleported at 4 s
  EXPECT_GT(rejected, 0);
  for (int threads : {2, 3, 7}) {
    const Run other = run(threads);
    EXPECT_EQ(other.threads, threads);
    ASSERT_EQ(other.out.size(), one.out.size());
    for (size_t k = 0; k < one.out.size(); ++k)
      ASSERT_EQ(std::memcmp(one.out[k].coeffs().data(), other.out[k].coeffs().data(), 4 * sizeof(float)), 0)
          << threads << " threads: output " << k % (count * n) << " of frame " << k / (count * n);
    EXPECT_EQ(bits(other.state), bits(one.state)) << threads << " threads";
    EXPECT_EQ(other.counts, one.counts) << threads << " threads";
  }
}

// The thread count can change between steps (and back to 1) without
// changing a bit of the outcome.
TEST(Batch, ThreadCountChangesBetweenSteps) {
  const auto rig = testing::make_rig(4, true, 0.8, 0.6);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  const int count = 37;
  Batch a(desc, ChainParams{}, count), b(desc, ChainParams{}, count);
  std::vector<Affine3d> hips(count);
  std::vector<Quaternionf> qa(count * 4), qb(count * 4);
  for (int f = 0; f < 240; ++f) {
    if (f % 60 == 0) b.set_threads(1 + (f / 60) % 3);
    for (int c = 0; c < count; ++c) hips[static_cast<size_t>(c)] = RandomHips(40u + c, 0.6)(f / 60.0);
    a.step(1.0 / 60.0, hips, qa);
    b.step(1.0 / 60.0, hips, qb);
    for (size_t k = 0; k < qa.size(); ++k) ASSERT_EQ(qa[k].coeffs(), qb[k].coeffs()) << "frame " << f;
  }
  Batch moved = std::move(b);  // the workers move with it
  a.step(1.0 / 60.0, hips, qa);
  moved.step(1.0 / 60.0, hips, qb);
  for (size_t k = 0; k < qa.size(); ++k) ASSERT_EQ(qa[k].coeffs(), qb[k].coeffs());
}

TEST(Batch, NonFiniteHipsKeepTheChainAndMatchTheScalarRejection) {
  const auto rig = testing::make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  Batch batch(desc, ChainParams{}, 3);
  ChainState st;  // chain 1's scalar reference, fed the same frames
  init_state(desc, st);
  std::vector<Affine3d> hips(3);
  std::vector<Quaternionf> out(12);
  std::vector<Quaterniond> rot(4);
  const double dt = 1.0 / 60.0;
  int bad_frames = 0;
  double worst = 0.0;
  for (int f = 0; f < 240; ++f) {
    for (int c = 0; c < 3; ++c) hips[static_cast<size_t>(c)] = testing::hip_swing(f * dt + 0.1 * c);
    if (f % 40 == 20) {  // chain 1 gets a NaN frame, then the same frame done right
      std::vector<Affine3d> bad = hips;
      bad[1].translation().x() = std::numeric_limits<double>::quiet_NaN();
      const Vector3f before = batch.position(1, 3);
      batch.step(dt, bad, out);
      step(desc, ChainParams{}, st, dt, bad[1], rot);
      ++bad_frames;
      EXPECT_EQ(batch.position(1, 3), before) << "a rejected chain keeps its state";
      for (const auto& q : out) ASSERT_TRUE(q.coeffs().allFinite());
    }
    batch.step(dt, hips, out);
    step(desc, ChainParams{}, st, dt, hips[1], rot);
    for (int i = 0; i < 4; ++i) {
      ASSERT_TRUE(out[static_cast<size_t>(4 + i)].coeffs().allFinite());
      worst = std::max(worst, (batch.position(1, i).cast<double>() - st.pos[static_cast<size_t>(i)]).norm());
    }
  }
  EXPECT_EQ(batch.rejected_hips(1), bad_frames);
  EXPECT_EQ(st.rejected_hips, bad_frames);
  EXPECT_EQ(batch.rejected_hips(0), 0);
  EXPECT_LT(worst / 2.0, kMaxPointError);
}

TEST(Batch, FirstStepResetsLikeScalar) {
  const auto rig = testing::make_rig(4, true, 0.8, 0.6);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  Batch batch(desc, ChainParams{}, 1);
  ChainState st;
  init_state(desc, st);
  const Affine3d hips = testing::still_hips(0.6);
  std::vector<Quaternionf> out(4);
  std::vector<Quaterniond> rot(4);
  batch.step(1.0 / 60.0, std::span<const Affine3d>(&hips, 1), out);
  step(desc, ChainParams{}, st, 1.0 / 60.0, hips, rot);
  for (int i = 0; i < 4; ++i) {
    EXPECT_LT((batch.position(0, i).cast<double>() - st.pos[static_cast<size_t>(i)]).norm(), 1e-5);
    EXPECT_LT(out[static_cast<size_t>(i)].cast<double>().angularDistance(rot[static_cast<size_t>(i)]), 1e-4);
    EXPECT_EQ(batch.contact(0, i), st.contact[static_cast<size_t>(i)] != 0);
  }
}

}  // namespace
}  // namespace solver

namespace solver {
namespace {

// The turn and bend tests are cosine tests; a limit of 180 deg or more must
// never fire (a cosine of 1e9 deg is anything), on both solvers.
TEST(Batch, TeleportAngleBeyondHalfTurnNeverFires) {
  const auto rig = testing::make_rig(4);
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
  for (double angle : {180.0, 359.0, 1e9}) {
    ChainParams params;
    params.teleport_angle_deg = angle;
    params.teleport_distance = 1e9;
    Batch batch(desc, params, 1);
    ChainState st;
    init_state(desc, st);
    std::vector<Quaternionf> out(4);
    std::vector<Quaterniond> rot(4);
    for (int f = 0; f < 30; ++f) {  // 170 deg turns every frame
      const Affine3d hips = testing::hips_pose(Vector3d(0, 1, 0), f * 170.0 * M_PI / 180.0);
      batch.step(1.0 / 60.0, std::span<const Affine3d>(&hips, 1), out);
      step(desc, params, st, 1.0 / 60.0, hips, rot);
    }
    EXPECT_EQ(batch.teleports(0), 0) << angle;
    EXPECT_EQ(st.teleports, 0) << angle;
  }
}

}  // namespace
}  // namespace solver
