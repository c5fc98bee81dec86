// Elbow bends the skin can take: the bend is cut where the elbow's skin
// would tear, and only there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "rig/retarget/clearance/elbow_bend.h"
#include "rig/model/pose.h"
#include "test_skeleton.h"

namespace rig {
namespace {

constexpr double kPi = std::numbers::pi;

// A T-posed biped whose left arm is a tube along +x: shoulder 9 at x 0.25,
// elbow 10 at 0.55, hand 11 at 0.85; rings every 0.03 of radius 0.05, each
// rigidly on the upper arm (x < 0.55) or the forearm, so a bend folds the
// inner elbow more the further it goes.
Character tube_armed_biped() {
  Character c;
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  joints.push_back({"mixamorig:LeftArm", 1, {0.25, 1.5, 0}});      // 9
  joints.push_back({"mixamorig:LeftForeArm", 9, {0.55, 1.5, 0}});  // 10
  joints.push_back({"mixamorig:LeftHand", 10, {0.85, 1.5, 0}});    // 11
  c.skeleton = make_skeleton(joints);
  constexpr int kSides = 8, kRings = 21;
  for (int k = 0; k < kRings; ++k)
    for (int s = 0; s < kSides; ++s) {
      const double x = 0.25 + 0.03 * k, a = 2 * kPi * s / kSides;
      c.mesh.positions.push_back({x, 1.5 + 0.05 * std::cos(a), 0.05 * std::sin(a)});
      c.skin.influences.push_back({{x < 0.55 - 1e-9 ? 9 : 10, 1.0}});
    }
  for (int k = 0; k + 1 < kRings; ++k)
    for (int s = 0; s < kSides; ++s) {
      const int a = k * kSides + s, b = k * kSides + (s + 1) % kSides;
      c.mesh.triangles.push_back({a, b, b + kSides});
      c.mesh.triangles.push_back({a, b + kSides, a + kSides});
    }
  return c;
}

// The forearm bent by `degrees` about the world z axis (up, towards the
// head) at t = 1 s, straight at 0 and 2 s.
Clip bend_once(double degrees) {
  Clip clip;
  clip.duration = 2.0;
  JointTracks fore;
  fore.joint = 10;
  const Quat bent(Eigen::AngleAxisd(degrees * kPi / 180.0, Vec3::UnitZ()));
  fore.rotation = {{0.0, 1.0, 2.0}, {Quat::Identity(), bent, Quat::Identity()}};
  clip.tracks = {fore};
  return clip;
}

double torn(const Character& c, const ElbowSkin& e, const Clip& clip, double t) {
  const std::vector<Vec3> p = skin_positions(c.mesh, c.skin, c.skeleton, pose_at(c.skeleton, clip, t));
  int n = 0;
  for (size_t i = 0; i < e.edges.size(); ++i) {
    const double r = (p[e.vertices[e.edges[i].first]] - p[e.vertices[e.edges[i].second]]).norm() / e.bind_length[i];
    n += r > 1.5 || r < 0.67;
  }
  return static_cast<double>(n) / static_cast<double>(e.edges.size());
}

double bend_degrees(const Clip& clip, double t) {
  const Quat q = sample(clip.tracks[0].rotation, t);
  return 2.0 * std::acos(std::min(1.0, std::abs(q.w()))) * 180.0 / kPi;
}

TEST(ElbowBend, SkinsAreTheUpperArmsAndForearmsEdges) {
  const Character c = tube_armed_biped();
  const std::vector<ElbowSkin> e = elbow_skins(c, arm_skins(c, {}));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].forearm, 10);
  EXPECT_EQ(e[0].edges.size(), e[0].bind_length.size());
  EXPECT_EQ(e[0].vertices.size(), 21u * 8u);
  EXPECT_EQ(e[0].edges.size(), 21u * 8u + 20u * 8u * 2u);  // ring, length and diagonal edges, each once
}

TEST(ElbowBend, ADeepBendIsCutToWhatTheSkinTakes) {
  const Character c = tube_armed_biped();
  const std::vector<ElbowSkin> e = elbow_skins(c, arm_skins(c, {}));
  ASSERT_EQ(e.size(), 1u);
  const Clip deep = bend_once(150.0);
  ElbowBendOptions o;
  o.smoothing_radius_s = 0.0;
  o.max_torn_fraction = 0.01;  // the tube is long: its fold is a small share of its edges
  ASSERT_GT(torn(c, e[0], deep, 1.0), o.max_torn_fraction);  // the test's premise
  const std::vector<double> times = {0.0, 1.0, 2.0};
  const ElbowBendResult r = limit_elbow_bends(c, e, deep, times, o);
  ASSERT_EQ(r.removed.size(), 1u);
  EXPECT_GT(r.removed[0][1], 0.0);
  EXPECT_EQ(r.removed[0][0], 0.0);
  EXPECT_LE(torn(c, e[0], r.clip, 1.0), o.max_torn_fraction);
  // The least cut: a bend 2 deg deeper than kept would tear.
  const double kept = bend_degrees(r.clip, 1.0);
  EXPECT_GT(torn(c, e[0], bend_once(kept + 2.0), 1.0), o.max_torn_fraction);
  EXPECT_GT(kept, 10.0);
  // With the default smoothing the neighbouring keys are cut too, never less.
  o.smoothing_radius_s = ElbowBendOptions{}.smoothing_radius_s;
  const std::vector<double> dense = {0.0, 0.5, 0.95, 1.0, 1.05, 1.5, 2.0};
  const ElbowBendResult s = limit_elbow_bends(c, e, deep, dense, o);
  EXPECT_LE(torn(c, e[0], s.clip, 1.0), o.max_torn_fraction);
  EXPECT_GT(s.removed[0][2], 0.0);
  EXPECT_GT(s.removed[0][4], 0.0);
}

// The bisection as first written: every trial poses the whole skeleton
// (local_to_world), skins every elbow vertex and counts every edge, then
// compares the fraction. limit_elbow_bends recomputes only what a bend
// moves and stops counting once the allowed count is passed: the same
// decisions, so the same cuts, bit for bit.
std::vector<double> reference_cuts(const Character& c, const ElbowSkin& e, const Clip& clip,
                                   const std::vector<double>& times, const ElbowBendOptions& o) {
  const Skeleton& sk = c.skeleton;
  std::vector<double> cut(times.size(), 0.0);
  auto fraction = [&](const std::vector<Transform>& locals) {
    const std::vector<Mat4> world = local_to_world(sk, locals);
    std::vector<Vec3> p(e.vertices.size());
    for (size_t i = 0; i < e.vertices.size(); ++i) {
      Eigen::Vector4d acc = Eigen::Vector4d::Zero();
      const Eigen::Vector4d bind = c.mesh.positions[e.vertices[i]].homogeneous();
      for (const Influence& in : c.skin.influences[e.vertices[i]])
        acc += in.weight * (Mat4(world[in.joint] * sk.inverse_bind[in.joint]) * bind);
      p[i] = acc.head<3>();
    }
    int torn = 0;
    for (size_t i = 0; i < e.edges.size(); ++i) {
      const double r = (p[e.edges[i].first] - p[e.edges[i].second]).norm() / e.bind_length[i];
      torn += !(r <= o.max_stretch && r >= o.min_stretch);
    }
    return static_cast<double>(torn) / static_cast<double>(e.edges.size());
  };
  for (size_t k = 0; k < times.size(); ++k) {
    std::vector<Transform> locals = sk.neutral_local;
    apply_clip(clip, times[k], locals);
    const Quat bind = sk.neutral_local[e.forearm].rotation;
    Quat rel = (bind.conjugate() * locals[e.forearm].rotation).normalized();
    if (rel.w() < 0.0) rel.coeffs() *= -1.0;
    auto torn_at = [&](double share) {
      std::vector<Transform> trial = locals;
      trial[e.forearm].rotation = (bind * Quat::Identity().slerp(share, rel)).normalized();
      return fraction(trial);
    };
    if (torn_at(1.0) <= o.max_torn_fraction || torn_at(0.0) > o.max_torn_fraction) continue;
    double lo = 0.0, hi = 1.0;
    for (int s = 0; s < o.bisection_steps; ++s) {
      const double mid = 0.5 * (lo + hi);
      (torn_at(mid) <= o.max_torn_fraction ? lo : hi) = mid;
    }
    cut[k] = 1.0 - lo;
  }
  return cut;
}

TEST(ElbowBend, SameCutsAsPosingEveryTrialWhole) {
  Character c = tube_armed_biped();
  // Skin near the elbow blended over both bones: some of the skin moves
  // with every trial bend, some only partly, the upper arm not at all.
  for (size_t v = 0; v < c.mesh.positions.size(); ++v) {
    const double x = c.mesh.positions[v].x(), w = std::clamp((x - 0.49) / 0.12, 0.0, 1.0);
    if (w > 0.0 && w < 1.0) c.skin.influences[v] = {{9, 1.0 - w}, {10, w}};
  }
  const std::vector<ElbowSkin> e = elbow_skins(c, arm_skins(c, {}));
  ASSERT_EQ(e.size(), 1u);
  Clip clip;
  clip.duration = 2.0;
  JointTracks fore;
  fore.joint = 10;
  std::vector<double> key_times, times;
  std::vector<Quat> keys;
  for (int k = 0; k <= 8; ++k) {
    key_times.push_back(0.25 * k);
    keys.push_back(Quat(Eigen::AngleAxisd((20.0 + 17.0 * k) * kPi / 180.0, Vec3(0.2 * (k % 3), 0.3, 1.0).normalized())));
  }
  fore.rotation = {key_times, keys};
  clip.tracks = {fore};
  for (int k = 0; k <= 40; ++k) times.push_back(0.05 * k);
  int cut_samples = 0;
  for (double max_torn : {0.0, 0.005, 0.01, 0.03, 0.2}) {
    ElbowBendOptions o;
    o.smoothing_radius_s = 0.0;  // the raw cuts (removed = angle x cut)
    o.max_torn_fraction = max_torn;
    const ElbowBendResult r = limit_elbow_bends(c, e, clip, times, o);
    const std::vector<double> want = reference_cuts(c, e[0], clip, times, o);
    for (size_t k = 0; k < times.size(); ++k) {
      const Quat rel = (c.skeleton.neutral_local[10].rotation.conjugate() * sample(clip.tracks[0].rotation, times[k]))
                           .normalized();
      const double angle = 2.0 * std::acos(std::clamp(std::abs(rel.w()), 0.0, 1.0));
      EXPECT_EQ(r.removed[0][k] > 0.0, want[k] > 0.0) << max_torn << " at " << times[k];
      if (want[k] > 0.0) {
        EXPECT_NEAR(r.removed[0][k], angle * want[k], 1e-12) << max_torn << " at " << times[k];
      }
      cut_samples += want[k] > 0.0;
    }
  }
  EXPECT_GT(cut_samples, 10) << "the clip must need cuts for this to compare anything";
}

TEST(ElbowBend, KeysKeepTheirHemisphere) {
  const Character c = tube_armed_biped();
  const std::vector<ElbowSkin> e = elbow_skins(c, arm_skins(c, {}));
  Clip deep = bend_once(150.0);
  for (Quat& q : deep.tracks[0].rotation.values) q.coeffs() *= -1.0;  // the same rotations, w <= 0
  ElbowBendOptions o;
  o.max_torn_fraction = 0.01;
  const ElbowBendResult r = limit_elbow_bends(c, e, deep, std::vector<double>{0.0, 1.0, 2.0}, o);
  ASSERT_GT(r.removed[0][1], 0.0);
  const auto& v = r.clip.tracks[0].rotation.values;
  for (size_t k = 1; k < v.size(); ++k) EXPECT_GE(v[k].coeffs().dot(v[k - 1].coeffs()), 0.0) << "key " << k;
}

TEST(ElbowBend, BadOptionsOrIndicesChangeNothing) {
  const Character c = tube_armed_biped();
  std::vector<ElbowSkin> e = elbow_skins(c, arm_skins(c, {}));
  const Clip deep = bend_once(150.0);
  const std::vector<double> times = {0.0, 1.0, 2.0};
  ElbowBendOptions nan;
  nan.max_torn_fraction = std::nan("");
  EXPECT_EQ(limit_elbow_bends(c, e, deep, times, nan).removed[0], std::vector<double>(3, 0.0));
  e[0].vertices.push_back(1 << 30);
  ElbowBendOptions o;
  o.max_torn_fraction = 0.01;
  EXPECT_EQ(limit_elbow_bends(c, e, deep, times, o).removed[0], std::vector<double>(3, 0.0));
}

TEST(ElbowBend, MissingTrailingRolesReadAsNone) {
  Character c = tube_armed_biped();
  c.skeleton.roles.resize(11);  // the hand's role missing
  EXPECT_EQ(elbow_skins(c, arm_skins(c, {})).size(), 1u);
}

TEST(ElbowBend, ABendTheSkinTakesIsLeftAsItIs) {
  const Character c = tube_armed_biped();
  const std::vector<ElbowSkin> e = elbow_skins(c, arm_skins(c, {}));
  const Clip mild = bend_once(5.0);
  ASSERT_LE(torn(c, e[0], mild, 1.0), ElbowBendOptions{}.max_torn_fraction);
  const ElbowBendResult r = limit_elbow_bends(c, e, mild, std::vector<double>{0.0, 1.0, 2.0});
  EXPECT_EQ(r.removed[0], std::vector<double>(3, 0.0));
  EXPECT_TRUE(r.clip.tracks[0].rotation.values[1].isApprox(mild.tracks[0].rotation.values[1], 1e-15));
}

TEST(ElbowBend, NoElbowsOrNoSamplesIsANoOp) {
  const Character c = tube_armed_biped();
  const Clip deep = bend_once(150.0);
  EXPECT_TRUE(limit_elbow_bends(c, {}, deep, std::vector<double>{0.0, 1.0}).removed.empty());
  const std::vector<ElbowSkin> e = elbow_skins(c, arm_skins(c, {}));
  const ElbowBendResult r = limit_elbow_bends(c, e, deep, std::vector<double>{});
  EXPECT_EQ(r.clip.tracks[0].rotation.values.size(), 3u);
  EXPECT_TRUE(elbow_skins(Character{}, {}).empty());
}

}  // namespace
}  // namespace rig
