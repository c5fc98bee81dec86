// The whole body above the floor (issue 45 class 7): rig::body_under_floor
// on tiny exact cases, then rig::transfer_clip on a headstand, whose crown
// goes under the floor where grounding's support points (each joint's
// lowest bind vertices: the chin) never do.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "rig/model/pose.h"
#include "rig/model/weld.h"
#include "rig/retarget/clearance/body_floor.h"
#include "rig/retarget/clip_transfer.h"
#include "test_skeleton.h"

namespace rig {
namespace {

using test::add_rigid_vertex;

// The Mixamo biped (hips 0, spine 1, head 2, legs 3-8) with a tail bone (9)
// and skin: soles at y 0, a trunk, and a head cube from the chin (y 1.6)
// to the crown (y 1.8) whose lowest bind vertices are its chin face.
Character headed_biped() {
  std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
  joints.push_back({"mixamorig:Tail", 0, {0, 0.9, -0.1}});
  Character c;
  c.skeleton = test::make_skeleton(joints);
  for (double x : {0.05, 0.15}) {
    add_rigid_vertex(c, {x, 0.0, 0.05}, 5);
    add_rigid_vertex(c, {-x, 0.0, 0.05}, 8);
  }
  for (double y : {1.0, 1.2, 1.4}) {
    add_rigid_vertex(c, {0.15, y, 0.0}, y < 1.1 ? 0 : 1);
    add_rigid_vertex(c, {-0.15, y, 0.0}, y < 1.1 ? 0 : 1);
  }
  for (double x : {-0.1, 0.1})
    for (double y : {1.6, 1.8})
      for (double z : {-0.1, 0.1}) add_rigid_vertex(c, {x, y, z}, 2);
  return c;
}

// A headstand: the hips turn about the forward axis (z) to upside down at
// 1 s and back, lowered from 1 to 0.7: upside down the chin is 0.1 above
// the floor and the crown 0.1 under it. Keys every 0.05 s.
Clip headstand(const Skeleton& sk) {
  Clip clip;
  clip.duration = 2.0;
  JointTracks hips;
  hips.joint = 0;
  for (int k = 0; k <= 40; ++k) {
    const double t = 0.05 * k, s = std::sin(M_PI * t / 2.0);
    hips.rotation.times.push_back(t);
    hips.rotation.values.push_back(Quat(Eigen::AngleAxisd(M_PI * s, Vec3::UnitZ())) * sk.neutral_local[0].rotation);
    hips.translation.times.push_back(t);
    hips.translation.values.push_back(Vec3(0.0, 1.0 - 0.3 * s, 0.0));
  }
  clip.tracks = {hips};
  return clip;
}

TransferResult transfer(const Character& c, const Clip& clip, const TransferOptions& o) {
  const Calibration cal = calibrate(c.skeleton);
  Character source;
  source.skeleton = c.skeleton;
  return transfer_clip(source, clip, cal, c, cal, o);
}

TEST(BodyFloor, DepthOfTheLowestBodyVertexAtEachKey) {
  Character c = headed_biped();
  const std::vector<int> body = body_floor_vertices(c, GroundingOptions{}, 1e-6);
  EXPECT_EQ(body.size(), static_cast<size_t>(c.mesh.vertex_count()));
  // The hips 0.3 under bind at 1 s: the soles 0.3 under the floor there.
  const Clip dip = test::hips_dip_clip(0.7);
  const std::vector<double> times = {0.0, 0.5, 1.0, 2.0};
  const BodyFloorDepth d = body_under_floor(c, body, dip, times, 0.0);
  ASSERT_EQ(d.depth.size(), times.size());
  EXPECT_NEAR(d.depth[0], 0.0, 1e-12);
  EXPECT_NEAR(d.depth[1], 0.15, 1e-12);
  EXPECT_NEAR(d.depth[2], 0.3, 1e-12);
  EXPECT_NEAR(d.max_depth, 0.3, 1e-12);
  EXPECT_EQ(d.key, 2);
  EXPECT_TRUE(d.joint == 5 || d.joint == 8) << d.joint;
  // Never under the floor: depth 0, no key.
  const BodyFloorDepth none = body_under_floor(c, body, dip, times, -1.0);
  EXPECT_EQ(none.max_depth, 0.0);
  EXPECT_EQ(none.key, -1);
  // The lift keeps the body within the tolerance: 0.3 - 0.1 at 1 s.
  const std::vector<double> lift = body_floor_lift(d, times, 0.1, 0.0);
  EXPECT_NEAR(lift[2], 0.2, 1e-12);
  EXPECT_EQ(lift[0], 0.0);
}

TEST(BodyFloor, TailSkinAndListedTailVerticesAreNotBody) {
  Character c = headed_biped();
  const int tail = add_rigid_vertex(c, {0.0, -0.5, -0.6}, 9);  // a tail tip far under the floor
  GroundingOptions g;
  std::vector<int> body = body_floor_vertices(c, g, 1e-6);
  EXPECT_EQ(std::count(body.begin(), body.end(), tail), 0);
  EXPECT_LT(body_under_floor(c, body, Clip{}, std::vector<double>{0.0}, 0.0).max_depth, 1e-12);
  // A boneless tail detect found (GroundingOptions::tail_vertices).
  const int cloth = add_rigid_vertex(c, {0.0, -0.2, 0.3}, 4);
  g.tail_vertices = {cloth};
  body = body_floor_vertices(c, g, 1e-6);
  EXPECT_EQ(std::count(body.begin(), body.end(), cloth), 0);
  EXPECT_EQ(body.size(), static_cast<size_t>(c.mesh.vertex_count() - 2));
}

// Fails before issue 45: grounding lifted the pelvis for its support points
// only (the chin) and the transfer left the crown 0.1 (5.6 % of H) under
// the floor.
TEST(BodyFloor, AHeadstandKeepsTheCrownOnTheFloor) {
  const Character c = headed_biped();
  const Clip clip = headstand(c.skeleton);
  const double h = model_height(c.mesh.positions);
  ASSERT_NEAR(h, 1.8, 1e-12);
  TransferOptions o;
  o.copy_own_rig_clips = false;  // one skeleton for source and target: retargeted
  TransferOptions off = o;
  off.body_above_floor = false;  // the transfer as it was
  const TransferResult before = transfer(c, clip, off);
  ASSERT_TRUE(before.status.ok()) << before.status.message;
  EXPECT_GT(before.under_floor.max_depth / h, 0.05) << "the headstand no longer puts the crown under the floor";
  EXPECT_EQ(before.under_floor.joint, 2);

  const TransferResult r = transfer(c, clip, o);
  ASSERT_TRUE(r.status.ok()) << r.status.message;
  EXPECT_NEAR(r.height, h, 1e-12);
  EXPECT_LE(r.under_floor.max_depth, o.body_floor_tolerance * h + 1e-9)
      << "crown " << r.under_floor.max_depth / h << " x H under the floor at key " << r.under_floor.key;
  EXPECT_GT(r.diagnostics.max_body_floor_lift, 0.05);
  EXPECT_GT(r.diagnostics.body_floor_lift_keys, 0);
  EXPECT_GE(r.diagnostics.max_body_floor_depth_before, 0.09);
  // Smooth: grounding's smoothing (never below the needed lift), no key
  // jumping by more than the deepest sink.
  ASSERT_EQ(r.body_floor_lift.size(), r.times.size());
  for (size_t k = 1; k < r.body_floor_lift.size(); ++k)
    EXPECT_LE(std::abs(r.body_floor_lift[k] - r.body_floor_lift[k - 1]), 0.1) << k;
  // Only where the body went under: the first and last keys (standing) unchanged.
  EXPECT_EQ(r.body_floor_lift.front(), 0.0);
  EXPECT_EQ(r.body_floor_lift.back(), 0.0);
}

TEST(BodyFloor, AClipThatNeverSinksIsLeftExactlyAsItWas) {
  const Character c = headed_biped();
  const Clip clip = test::hips_dip_clip(0.9);  // a 10 cm crouch: feet pinned, nothing else low
  TransferOptions o;
  o.copy_own_rig_clips = false;
  TransferOptions off = o;
  off.body_above_floor = false;
  const TransferResult a = transfer(c, clip, o), b = transfer(c, clip, off);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  EXPECT_EQ(a.diagnostics.max_body_floor_lift, 0.0);
  ASSERT_EQ(a.clip.tracks.size(), b.clip.tracks.size());
  for (size_t i = 0; i < a.clip.tracks.size(); ++i) {
    EXPECT_EQ(a.clip.tracks[i].translation.values, b.clip.tracks[i].translation.values);
    ASSERT_EQ(a.clip.tracks[i].rotation.values.size(), b.clip.tracks[i].rotation.values.size());
    for (size_t k = 0; k < a.clip.tracks[i].rotation.values.size(); ++k)
      EXPECT_EQ(a.clip.tracks[i].rotation.values[k].coeffs(), b.clip.tracks[i].rotation.values[k].coeffs());
  }
  // Measured either way: the body stays on the floor.
  EXPECT_LE(a.under_floor.max_depth, 1e-6);
  EXPECT_EQ(a.under_floor.max_depth, b.under_floor.max_depth);
}

}  // namespace
}  // namespace rig
