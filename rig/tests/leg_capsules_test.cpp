// Leg capsules (issue 46): fitted to the legs' own skin, moved by their bones.
#include <gtest/gtest.h>

#include <cmath>

#include "rig/anatomy/leg_capsules.h"
#include "rig/model/pose.h"
#include "test_skeleton.h"

namespace rig {
namespace {

// The test biped with a ring of skin of radius `r` around every leg bone.
Character skinned_biped(double r) {
  Character c;
  c.skeleton = test::mixamo_biped();
  const Skeleton& sk = c.skeleton;
  for (int j = 0; j < sk.size(); ++j) {
    const auto kids = sk.children(j);
    if (kids.empty() || sk.names[j].find("Leg") == std::string::npos) continue;  // thighs and shins
    const Vec3 a = sk.bind_world[j].block<3, 1>(0, 3), b = sk.bind_world[kids[0]].block<3, 1>(0, 3);
    for (int s = 1; s < 10; ++s)
      for (int k = 0; k < 8; ++k) {
        const double phi = 2 * M_PI * k / 8;
        test::add_rigid_vertex(c, a + (b - a) * (s / 10.0) + r * Vec3(std::cos(phi), 0, std::sin(phi)), j);
      }
  }
  return c;
}

TEST(LegCapsules, FitTheLegSkinAndFollowTheBones) {
  const Character c = skinned_biped(0.05);
  const std::vector<LegCapsule> legs = fit_leg_capsules(c);
  ASSERT_EQ(legs.size(), 4u) << "thigh and shin of two legs";
  for (const LegCapsule& k : legs) {
    EXPECT_NEAR(k.radius_a, 0.05, 1e-9);
    EXPECT_NEAR(k.radius_b, 0.05, 1e-9);
  }
  const LegCapsule& thigh = legs[0];
  const Vec3 mid = 0.5 * (thigh.a + thigh.b);
  EXPECT_NEAR(capsule_depth(thigh, Mat4::Identity(), mid), 0.05, 1e-12) << "on the axis: as deep as the radius";
  EXPECT_LT(capsule_depth(thigh, Mat4::Identity(), mid + Vec3(0, 0, 0.2)), 0.0) << "a hand's width off: outside";
  // Swing the thigh forward 90 deg: its capsule goes along; the bind middle is left behind.
  std::vector<Transform> locals = c.skeleton.neutral_local;
  locals[thigh.joint].rotation = Quat(Eigen::AngleAxisd(-M_PI / 2, Vec3::UnitX())) * locals[thigh.joint].rotation;
  const std::vector<Mat4> world = local_to_world(c.skeleton, locals);
  const Mat4 skinning = world[thigh.joint] * c.skeleton.inverse_bind[thigh.joint];
  const Vec3 moved = (skinning * mid.homogeneous()).head<3>();
  EXPECT_NEAR(capsule_depth(thigh, skinning, moved), 0.05, 1e-12);
  EXPECT_LT(capsule_depth(thigh, skinning, mid), 0.0);
  // Posed once (posed_axis) for many points: the same bits as per point.
  const PosedAxis axis = posed_axis(thigh, skinning);
  for (const Vec3& q : {moved, mid, Vec3(moved + Vec3(0.01, -0.02, 0.03)), Vec3(thigh.a), Vec3(thigh.b)})
    EXPECT_EQ(capsule_depth(thigh, axis, q), capsule_depth(thigh, skinning, q));
  // Skin left out (a rigger's tail on the thighs) does not count.
  std::vector<char> all(static_cast<size_t>(c.mesh.vertex_count()), 1);
  EXPECT_TRUE(fit_leg_capsules(c, all).empty());
}

}  // namespace
}  // namespace rig
