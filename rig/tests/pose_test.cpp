#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "rig/model/pose.h"

namespace rig {
namespace {

constexpr double kPi = std::numbers::pi;

Mat4 translate(Vec3 t) {
  Mat4 m = Mat4::Identity();
  m.block<3, 1>(0, 3) = t;
  return m;
}

// Three joints in a line up Y, each 1 unit apart, bind = rest.
Skeleton line_skeleton() {
  Skeleton sk;
  sk.names = {"a", "b", "c"};
  sk.parents = {-1, 0, 1};
  for (int i = 0; i < 3; ++i) {
    sk.bind_world.push_back(translate({0, double(i), 0}));
    sk.inverse_bind.push_back(sk.bind_world.back().inverse());
    sk.root_parent_world.push_back(Mat4::Identity());
  }
  for (int i = 0; i < 3; ++i) {
    Transform t;
    t.translation = i == 0 ? Vec3::Zero() : Vec3(0, 1, 0);
    sk.neutral_local.push_back(t);
    sk.stored_local.push_back(t);
  }
  return sk;
}

TEST(Sample, LinearTranslationAndClamping) {
  Track<Vec3> tr{{0.0, 1.0}, {Vec3(0, 0, 0), Vec3(2, 4, 6)}, Interpolation::kLinear};
  EXPECT_TRUE(sample(tr, 0.25).isApprox(Vec3(0.5, 1, 1.5)));
  EXPECT_EQ(sample(tr, -1.0), Vec3(0, 0, 0));
  EXPECT_EQ(sample(tr, 7.0), Vec3(2, 4, 6));
}

TEST(Sample, StepHoldsPreviousKey) {
  Track<Vec3> tr{{0.0, 1.0, 2.0}, {Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2)}, Interpolation::kStep};
  EXPECT_EQ(sample(tr, 0.99), Vec3(0, 0, 0));
  EXPECT_EQ(sample(tr, 1.0), Vec3(1, 1, 1));
  EXPECT_EQ(sample(tr, 1.5), Vec3(1, 1, 1));
}

TEST(Sample, SlerpHalfway) {
  Quat a = Quat::Identity();
  Quat b(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()));
  Track<Quat> tr{{0.0, 2.0}, {a, b}, Interpolation::kLinear};
  Quat half = sample(tr, 1.0);
  EXPECT_NEAR(half.angularDistance(Quat(Eigen::AngleAxisd(kPi / 4, Vec3::UnitZ()))), 0.0, 1e-12);
}

TEST(Sample, CubicSplineHitsKeysAndUsesTangents) {
  // Values 0 -> 1 with zero tangents: smoothstep, 0.5 at the middle.
  Track<Vec3> tr{{0.0, 1.0},
                 {Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Ones(), Vec3::Zero()},
                 Interpolation::kCubicSpline};
  EXPECT_TRUE(sample(tr, 0.5).isApprox(Vec3::Constant(0.5)));
  EXPECT_TRUE(sample(tr, 0.25).isApprox(Vec3::Constant(3 * 0.0625 - 2 * 0.015625)));
  EXPECT_EQ(sample(tr, 1.0), Vec3::Ones());
}

TEST(Pose, NeutralPoseReproducesBind) {
  Skeleton sk = line_skeleton();
  auto w = local_to_world(sk, sk.neutral_local);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(w[i].isApprox(sk.bind_world[i]));
}

TEST(Pose, ApplyClipOverridesOnlyAnimatedJoints) {
  Skeleton sk = line_skeleton();
  Clip clip;
  JointTracks jt;
  jt.joint = 1;
  jt.rotation = {{0.0, 1.0}, {Quat::Identity(), Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()))}, Interpolation::kLinear};
  clip.tracks.push_back(jt);
  auto w = pose_at(sk, clip, 1.0);
  // Joint b turns 90° about Z: joint c (1 up in b's frame) goes to -X.
  EXPECT_TRUE(Vec3(w[2].block<3, 1>(0, 3)).isApprox(Vec3(-1, 1, 0)));
  EXPECT_TRUE(w[0].isApprox(sk.bind_world[0]));
}

TEST(Skinning, BindPoseReturnsPositionsAndBlendsLinearly) {
  Skeleton sk = line_skeleton();
  Mesh mesh;
  mesh.positions = {{1, 1, 0}, {1, 2, 0}};
  Skin skin;
  skin.influences = {{{1, 1.0}}, {{1, 0.5}, {2, 0.5}}};
  auto bind = local_to_world(sk, sk.neutral_local);
  auto out = skin_positions(mesh, skin, sk, bind);
  EXPECT_TRUE(out[0].isApprox(mesh.positions[0]));
  EXPECT_TRUE(out[1].isApprox(mesh.positions[1]));
  // Move joint c by +1 in X: the half-weighted vertex moves by 0.5.
  auto locals = sk.neutral_local;
  locals[2].translation += Vec3(1, 0, 0);
  auto moved = skin_positions(mesh, skin, sk, local_to_world(sk, locals));
  EXPECT_TRUE(moved[0].isApprox(mesh.positions[0]));
  EXPECT_TRUE(moved[1].isApprox(Vec3(1.5, 2, 0)));
}

TEST(Transform, MatrixRoundTrip) {
  Transform t;
  t.translation = {1, -2, 3};
  t.rotation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  t.scale = {2, 2, 2};
  Transform back = Transform::from_matrix(t.matrix());
  EXPECT_TRUE(back.translation.isApprox(t.translation));
  EXPECT_NEAR(back.rotation.angularDistance(t.rotation), 0.0, 1e-12);
  EXPECT_TRUE(back.scale.isApprox(t.scale));
}

}  // namespace
}  // namespace rig
