// pipeline::find_rigger_tail (harness/rigger_tail.h): the skin grounding leaves out.
// A floor-length cape, weighted by its rigger to the trunk and thighs, is
// cloth past the knees: its hem swings under the floor with the thighs, and
// body grounding lifted the whole character off the floor for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fixtures/fixtures.h"
#include "rig/retarget/clip_transfer.h"
#include "rig/retarget/retarget.h"
#include "pipeline/keep_off_grounding.h"

namespace harness {
namespace {

// The caped fixture with its cape (hem at the knees) stretched down to the
// floor: every cape vertex below mid-height moved down proportionally, and
// weighted below the knees to the nearer shin (an automatic-weights rig).
rig::Character floor_length_cape(std::vector<int>& cape) {
  rig::Character c;
  std::string error;
  EXPECT_TRUE(fixtures::make_fixture("caped", fixtures::default_params("caped"), c, &error)) << error;
  cape.clear();
  for (int v = 0; v < c.mesh.vertex_count(); ++v)
    if (c.mesh.primitives[c.mesh.source_primitive[v]].name.find("cape") != std::string::npos) cape.push_back(v);
  double hem = 1e30, top = -1e30, floor = 1e30;
  for (int v : cape) hem = std::min(hem, c.mesh.positions[v].y());
  for (const rig::Vec3& p : c.mesh.positions) {
    top = std::max(top, p.y());
    floor = std::min(floor, p.y());
  }
  const double mid = floor + 0.5 * (top - floor), to = floor + 0.01 * (top - floor);
  for (int v : cape) {
    double& y = c.mesh.positions[v].y();
    if (y < mid) y = to + (y - hem) * (mid - to) / (mid - hem);
  }
  // Below the knees, the nearer shin takes it, as bone heat would.
  const int left_shin = c.skeleton.find("mixamorig:LeftLeg"), right_shin = c.skeleton.find("mixamorig:RightLeg");
  EXPECT_TRUE(left_shin >= 0 && right_shin >= 0);
  const double knee = c.skeleton.bind_world[left_shin](1, 3);
  for (int v : cape) {
    const rig::Vec3& p = c.mesh.positions[v];
    if (p.y() >= knee) continue;
    const double dl = (p - c.skeleton.bind_world[left_shin].block<3, 1>(0, 3)).norm();
    const double dr = (p - c.skeleton.bind_world[right_shin].block<3, 1>(0, 3)).norm();
    c.skin.influences[v] = {{dl < dr ? left_shin : right_shin, 1.0}};
  }
  return c;
}

TEST(RiggerTail, AFloorLengthCapeIsClothGroundingLeavesOut) {
  std::vector<int> cape;
  const rig::Character c = floor_length_cape(cape);
  ASSERT_GT(cape.size(), 100u);
  std::vector<int> tail, cloth;
  EXPECT_EQ(pipeline::find_rigger_tail(c, tail, &cloth), 0);
  // Most of the cape (its top, near the trunk's skeleton, is body skin).
  int found = 0;
  for (int v : cape) found += std::binary_search(cloth.begin(), cloth.end(), v) ? 1 : 0;
  EXPECT_GT(found, static_cast<int>(cape.size()) / 2) << found << " of " << cape.size();
  for (int v : cloth) EXPECT_TRUE(std::binary_search(cape.begin(), cape.end(), v)) << "vertex " << v;

  // The canonical walk: counted as body, the hem lifts the character.
  rig::Character source;
  ASSERT_TRUE(fixtures::make_clip_source(fixtures::FixtureParams{}, source));
  const rig::Clip* walk = nullptr;
  for (const rig::Clip& k : source.clips)
    if (k.name == "walk") walk = &k;
  ASSERT_NE(walk, nullptr);
  const rig::Calibration src = rig::calibrate(source.skeleton), dst = rig::calibrate(c.skeleton);
  rig::TransferOptions counted;
  const rig::TransferResult lifted = rig::transfer_clip(source, *walk, src, c, dst, counted);
  rig::TransferOptions left_out;  // as harness retarget prepares it
  size_t kept_off = 0;
  EXPECT_EQ(pipeline::keep_off_grounding(c, left_out.grounding, kept_off), 0);
  EXPECT_EQ(kept_off, cloth.size());
  const rig::TransferResult grounded = rig::transfer_clip(source, *walk, src, c, dst, left_out);
  ASSERT_TRUE(lifted.status.ok()) << lifted.status.message;
  ASSERT_TRUE(grounded.status.ok()) << grounded.status.message;
  EXPECT_GT(lifted.diagnostics.max_lift, 0.02);
  EXPECT_LT(grounded.diagnostics.max_lift, 0.25 * lifted.diagnostics.max_lift) << lifted.diagnostics.max_lift;
}

// A region that holds a foot's sole is the body's legs, not cloth over them
// (a long quadruped whose hind legs, feet and neck detect reads as one worn
// region on its trunk): left out of grounding, the body would stand on its
// other feet. The floor-length cape with its lowest hem vertex given to the
// left foot and put under every sole: that vertex is the foot's sole now.
TEST(RiggerTail, ARegionHoldingAFootsSoleIsNotCloth) {
  std::vector<int> cape;
  rig::Character c = floor_length_cape(cape);
  ASSERT_GT(cape.size(), 100u);
  const int left_foot = c.skeleton.find("mixamorig:LeftFoot");
  ASSERT_GE(left_foot, 0);
  int hem = cape.front();
  for (int v : cape)
    if (c.mesh.positions[v].y() < c.mesh.positions[hem].y()) hem = v;
  double floor = 1e30;
  for (const rig::Vec3& p : c.mesh.positions) floor = std::min(floor, p.y());
  c.mesh.positions[hem].y() = floor - 0.001;
  c.skin.influences[hem] = {{left_foot, 1.0}};
  std::vector<int> tail, cloth;
  EXPECT_EQ(pipeline::find_rigger_tail(c, tail, &cloth), 0);
  EXPECT_FALSE(std::binary_search(cloth.begin(), cloth.end(), hem)) << cloth.size() << " cloth vertices";
}

// The fixtures' cape and skirt reach past the knees too; a tail is no
// cloth, and a plain body has none.
TEST(RiggerTail, CapeAndSkirtAreClothTailAndBodyAreNot) {
  for (const char* name : {"caped", "skirted", "fox", "tailless"}) {
    SCOPED_TRACE(name);
    rig::Character c;
    ASSERT_TRUE(fixtures::make_fixture(name, fixtures::default_params(name), c));
    std::vector<int> tail, cloth;
    const int n = pipeline::find_rigger_tail(c, tail, &cloth);
    const std::string kind = name;
    EXPECT_EQ(n > 0, kind == "fox");
    EXPECT_EQ(!cloth.empty(), kind == "caped" || kind == "skirted") << cloth.size() << " vertices";
    for (int v : cloth) {
      const std::string& prim = c.mesh.primitives[c.mesh.source_primitive[v]].name;
      ASSERT_TRUE(prim.find(kind == "caped" ? "cape" : "skirt") != std::string::npos) << "vertex " << v << " on " << prim;
    }
  }
}

}  // namespace
}  // namespace harness
