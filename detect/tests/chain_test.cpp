#include "detect/rewrite/grow_chain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "test_util.h"

namespace detect {
namespace {

TEST(Chain, BoneCount) {
  EXPECT_EQ(bone_count(0.81, 1.91), 4);   // fox: 81 cm of 191 cm
  EXPECT_EQ(bone_count(0.05, 1.0), 3);    // clamped up
  EXPECT_EQ(bone_count(2.0, 1.0), 8);     // clamped down
  EXPECT_EQ(bone_count(0.55, 1.0), 6);    // round half away from zero
  EXPECT_EQ(bone_count(81.0, 191.0), 4);  // unit free
}

TEST(Chain, BoneCountLimitedByTheMeshEdgeStep) {
  // T-Rex: L 17.5 of H 15.22 asks for 11.5 -> 8 joints, but its tail edges
  // step 3.2 along g: no more than floor(17.5 / 3.2) = 5 segments.
  EXPECT_EQ(bone_count(17.5, 15.22, {}, 3.2), 5);
  EXPECT_EQ(bone_count(17.5, 15.22, {}, 0.0), 8);   // no step known: the SPEC's K
  EXPECT_EQ(bone_count(0.81, 1.91, {}, 0.03), 4);   // a dense tail: unchanged
  EXPECT_EQ(bone_count(1.0, 1.0, {}, 0.9), 3);      // never below min_bones
  EXPECT_EQ(bone_count(1.0, 1.0, {}, std::numeric_limits<double>::quiet_NaN()), 8);  // ignored
}

TEST(Chain, EdgeStepAlong) {
  const std::vector<double> g = {0.0, 1.0, 2.0, 2.5, std::numeric_limits<double>::infinity()};
  // steps 1, 1, 0.5 (the edge to the unreached vertex is skipped); p90 of
  // {0.5, 1, 1} at index floor(0.9 * 2) = 1 -> 1.
  EXPECT_DOUBLE_EQ(edge_step_along({{0, 1}, {1, 2}, {2, 3}, {3, 4}}, g), 1.0);
  EXPECT_DOUBLE_EQ(edge_step_along({}, g), 0.0);
}

TEST(Chain, BlendWeightsFormula) {
  auto expect = [](double f, double p, double s, double n) {
    const auto w = blend_weights(f);
    EXPECT_DOUBLE_EQ(w[0], p) << "f=" << f;
    EXPECT_DOUBLE_EQ(w[1], s) << "f=" << f;
    EXPECT_DOUBLE_EQ(w[2], n) << "f=" << f;
  };
  expect(0.0, 0.5, 0.5, 0.0);
  expect(0.25, 0.0, 1.0, 0.0);
  expect(0.5, 0.0, 1.0, 0.0);
  expect(0.75, 0.0, 1.0, 0.0);
  expect(1.0, 0.0, 0.5, 0.5);
  expect(0.125, 0.25, 0.75, 0.0);
  expect(0.875, 0.0, 0.75, 0.25);
}

double weight_of(const std::vector<rig::Influence>& l, int joint) {
  double w = 0.0;
  for (const auto& i : l) w += i.joint == joint ? i.weight : 0.0;
  return w;
}

TEST(Chain, InfluencesRootMiddleAndTip) {
  // K = 4, L = 1, Hips = 0, Tail_1..Tail_4 = 10..13.
  auto w = chain_influences(0.0, 1.0, 4, 0, 10);  // at the ring: half Hips
  EXPECT_DOUBLE_EQ(weight_of(w, 0), 0.5);
  EXPECT_DOUBLE_EQ(weight_of(w, 10), 0.5);
  w = chain_influences(0.25, 1.0, 4, 0, 10);  // joint J1: Tail_1/Tail_2 50/50
  EXPECT_DOUBLE_EQ(weight_of(w, 10), 0.5);
  EXPECT_DOUBLE_EQ(weight_of(w, 11), 0.5);
  w = chain_influences(0.375, 1.0, 4, 0, 10);  // mid segment 2
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].joint, 11);
  EXPECT_DOUBLE_EQ(w[0].weight, 1.0);
  // Tip (and beyond L, the top 1 %): the last bone keeps everything.
  for (double g : {0.99, 1.0, 1.3}) {
    w = chain_influences(g, 1.0, 4, 0, 10);
    EXPECT_DOUBLE_EQ(weight_of(w, 13), 1.0) << g;
  }
  for (double g = 0.0; g <= 1.2; g += 0.01) {
    double sum = 0.0;
    for (const auto& i : chain_influences(g, 1.0, 4, 0, 10)) {
      EXPECT_GT(i.weight, 0.0);
      sum += i.weight;
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
  }
}

TEST(Chain, JointsCentroidsAndSmoothing) {
  // Points on a line along -z, g = |z|, plus a zig-zag offset in x at g=0.5.
  std::vector<rig::Vec3> p;
  std::vector<double> g;
  for (int i = 1; i <= 100; ++i) {
    const double t = i / 100.0;
    p.push_back({std::abs(t - 0.5) < 0.1 ? 0.4 : 0.0, 0, -t});
    g.push_back(t);
  }
  const auto raw = chain_joints(p, g, {0, 0, 0}, 1.0, 4, 0);
  ASSERT_EQ(raw.size(), 5u);
  EXPECT_TRUE(raw[0].isZero());
  EXPECT_NEAR(raw[1].z(), -0.25, 1e-12);  // window [0.125, 0.375]
  EXPECT_NEAR(raw[2].z(), -0.5, 1e-12);
  EXPECT_GT(raw[2].x(), 0.3);             // the zig
  const auto smooth = chain_joints(p, g, {0, 0, 0}, 1.0, 4, 1);
  EXPECT_TRUE(smooth[0].isZero());
  EXPECT_TRUE(smooth[4].isApprox(raw[4]));  // tip stays
  EXPECT_NEAR(smooth[2].x(), 0.5 * raw[2].x() + 0.25 * (raw[1].x() + raw[3].x()), 1e-12);
  const auto two = chain_joints(p, g, {0, 0, 0}, 1.0, 4, 2);
  EXPECT_LT(two[2].x(), smooth[2].x());
}

TEST(Chain, JointsOnTheRootLineOfASplitOffTail) {
  // The root joint is 1 unit above the ring (centroid at the origin); the
  // skin starts at the ring with g = 1 + |z|, its first vertices all on one
  // side (x = 0.6). Without the root line the empty windows take that skin
  // and the chain's root bends sideways (T-Rex, issue 12).
  std::vector<rig::Vec3> p;
  std::vector<double> g;
  for (int i = 0; i <= 100; ++i) {
    const double t = i / 100.0;
    p.push_back({t < 0.05 ? 0.6 : 0.0, 0, -t});
    g.push_back(1.0 + t);
  }
  const rig::Vec3 root(0, 1, 0);
  const auto old_way = chain_joints(p, g, root, 2.0, 4, 0);
  EXPECT_GT(old_way[1].x(), 0.5);  // the sideways kink this test guards against
  const auto joints = chain_joints(p, g, root, 2.0, 4, 0, RootLine{{0, 0, 0}, 1.0});
  ASSERT_EQ(joints.size(), 5u);
  EXPECT_TRUE(joints[0].isApprox(root));
  EXPECT_TRUE(joints[1].isApprox(rig::Vec3(0, 0.5, 0)));  // halfway down the line
  EXPECT_NEAR(joints[3].z(), -0.5, 1e-12);                  // skin centroids past it
  EXPECT_NEAR(joints[3].x(), 0.0, 1e-12);
}

TEST(Chain, AddChainBindMatricesAndWeights) {
  using detect_test::make_skeleton;
  rig::Character c;
  c.skeleton = make_skeleton({"Hips", "Spine"}, {-1, 0}, {{0, 1, 0}, {0, 1.5, 0}});
  // Give Hips a rotation and a 0.01 scale: the chain must copy both.
  rig::Mat4 hips = rig::Mat4::Identity();
  hips.block<3, 3>(0, 0) =
      0.01 * Eigen::AngleAxisd(0.7, rig::Vec3(0, 1, 0)).toRotationMatrix();
  hips.block<3, 1>(0, 3) = rig::Vec3(0, 1, 0);
  c.skeleton.bind_world[0] = hips;
  c.skeleton.inverse_bind[0] = hips.inverse();
  c.mesh.positions = {{0, 1.4, 0}, {0, 0.9, -0.1}, {0, 0.7, -0.2}};
  c.skin.influences = {{{1, 1.0}}, {{1, 0.5}, {0, 0.5}}, {{1, 1.0}}};
  const std::vector<rig::Vec3> joints = {{0, 1, -0.1}, {0, 0.8, -0.15}, {0, 0.6, -0.2},
                                         {0, 0.4, -0.25}};
  std::vector<int> ids;
  const auto out = add_chain(c, 0, joints, 0.6, {1, 2}, {0.1, 0.3}, {}, &ids);
  const auto& sk = out.skeleton;
  ASSERT_EQ(sk.size(), 6);
  EXPECT_EQ(ids, (std::vector<int>{2, 3, 4, 5}));
  EXPECT_EQ(sk.names[2], "Tail_1");
  EXPECT_EQ(sk.names[4], "Tail_3");
  EXPECT_EQ(sk.names[5], "Tail_End");
  EXPECT_EQ(sk.parents[2], 0);
  EXPECT_EQ(sk.parents[5], 4);
  for (int j = 2; j < 6; ++j) {
    const Eigen::Matrix3d linear = sk.bind_world[j].block<3, 3>(0, 0);
    const rig::Vec3 origin = sk.bind_world[j].block<3, 1>(0, 3);
    EXPECT_TRUE(linear.isApprox(hips.topLeftCorner<3, 3>()));
    EXPECT_TRUE(origin.isApprox(joints[j - 2]));
    EXPECT_TRUE((sk.inverse_bind[j] * sk.bind_world[j]).isApprox(rig::Mat4::Identity()));
    const auto& l = sk.neutral_local[j];
    EXPECT_TRUE(l.rotation.isApprox(rig::Quat::Identity()));
    EXPECT_TRUE(l.scale.isApprox(rig::Vec3::Ones()));
    const rig::Mat4 rebuilt = sk.bind_world[sk.parents[j]] * detect_test::translation(l.translation);
    EXPECT_TRUE(rebuilt.isApprox(sk.bind_world[j], 1e-12));
    EXPECT_EQ(sk.stored_local[j].translation, l.translation);
  }
  // Vertex 0 untouched (bit-identical), 1 and 2 on the chain.
  EXPECT_EQ(out.skin.influences[0].size(), 1u);
  EXPECT_EQ(out.skin.influences[0][0].joint, 1);
  EXPECT_EQ(out.skin.influences[1].size(), 1u);  // g=0.1: s=0.5 mid Tail_1
  EXPECT_EQ(out.skin.influences[1][0].joint, 2);
  ASSERT_EQ(out.skin.influences[2].size(), 1u);  // g=0.3: s=1.5, mid Tail_2
  EXPECT_EQ(out.skin.influences[2][0].joint, 3);
  // Input untouched.
  EXPECT_EQ(c.skeleton.size(), 2);
  EXPECT_EQ(c.skin.influences[1].size(), 2u);
}

}  // namespace
}  // namespace detect
