// Units (issue 11's real files arrive as FBX too): a character rewritten in
// metres skins to the same shape scaled, and an FBX's armature object is no
// joint.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "rig/io/io.h"
#include "rig/model/pose.h"
#include "rig/model/units.h"

namespace rig {
namespace {

std::string asset(const std::string& rel) { return std::string(TAILRIG_ASSETS) + "/" + rel; }

#define REQUIRE_ASSET(p) \
  if (!std::filesystem::exists(p)) GTEST_SKIP() << "asset missing: " << (p) << " (set TAILRIG_ASSETS)"

// Posed skin of clip 0 at time t.
std::vector<Vec3> posed(const Character& c, double t) {
  return skin_positions(c.mesh, c.skin, c.skeleton, pose_at(c.skeleton, c.clips[0], t));
}

TEST(Units, MetresSkinToTheSameShapeScaled) {
  const std::string in = asset("characters/Trex.glb");
  REQUIRE_ASSET(in);
  Character c;
  ASSERT_TRUE(load(in, c).ok());
  ASSERT_FALSE(c.clips.empty());
  c.meters_per_unit = 0.01;  // as if its units were centimetres
  Character m = c;
  express_in_metres(m);
  EXPECT_EQ(m.meters_per_unit, 1.0);
  for (double t : {0.0, 0.37}) {
    const auto a = posed(c, t), b = posed(m, t);
    ASSERT_EQ(a.size(), b.size());
    double worst = 0;
    for (size_t v = 0; v < a.size(); ++v) worst = std::max(worst, (b[v] - 0.01 * a[v]).norm());
    EXPECT_LT(worst, 1e-9) << "t=" << t;
  }
  for (size_t v = 0; v < c.mesh.positions.size(); v += 97)
    EXPECT_NEAR((m.mesh.positions[v] - 0.01 * c.mesh.positions[v]).norm(), 0.0, 1e-12);
  Character same = c;
  same.meters_per_unit = 1.0;
  express_in_metres(same);
  EXPECT_EQ(same.mesh.positions, c.mesh.positions);  // metres already: untouched
}

// The CMU clip's top node (07_01) holds its own transform in every key: it
// sits above the roots (root_parent_world), and Hips is the root joint.
TEST(Units, FbxTopNodeThatAnimatesNothingIsNoJoint) {
  const std::string in = asset("clips/cmu_07_01_walk.fbx");
  REQUIRE_ASSET(in);
  Character c;
  ASSERT_TRUE(load(in, c).ok());
  EXPECT_EQ(c.skeleton.find("07_01"), -1);
  const int hips = c.skeleton.find("Hips");
  ASSERT_GE(hips, 0);
  EXPECT_EQ(c.skeleton.parents[hips], -1);
}

}  // namespace
}  // namespace rig
