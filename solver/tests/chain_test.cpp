// Setup from plain rig data: names, chain order, neutral locals from inverse
// bind matrices, missing Tail_End, carry and rest arc (tiny exact cases).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/solver.h"
#include "test_rig.h"

namespace solver {
namespace {

using testing::make_rig;
using testing::TestRig;

TEST(ParseTailName, AcceptsPrefixesRejectsSubstrings) {
  std::string pre;
  EXPECT_EQ(parse_tail_name("Tail_1", &pre), 1);
  EXPECT_EQ(pre, "");
  EXPECT_EQ(parse_tail_name("mixamorig:Tail_12", &pre), 12);
  EXPECT_EQ(pre, "mixamorig:");
  EXPECT_EQ(parse_tail_name("mixamorig_Tail_End", &pre), 0);
  EXPECT_EQ(parse_tail_name("PonyTail_1", &pre), -1);
  EXPECT_EQ(parse_tail_name("Tail_", &pre), -1);
  EXPECT_EQ(parse_tail_name("Tail_0", &pre), -1);
  EXPECT_EQ(parse_tail_name("Tail_1a", &pre), -1);
  EXPECT_EQ(parse_tail_name("Hips", &pre), -1);
}

TEST(BuildChain, FindsTailInOrderAndLengths) {
  const TestRig rig = make_rig(4, true, 0.8);
  ChainDesc desc;
  const ChainStatus st = build_chain(rig.input(), ChainParams{}, desc);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_EQ(desc.size(), 4);
  EXPECT_EQ(rig.names[static_cast<size_t>(desc.hips)], "Hips");
  EXPECT_EQ(desc.root_parent, desc.hips);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(rig.names[static_cast<size_t>(desc.links[static_cast<size_t>(i)].joint)],
              "Tail_" + std::to_string(i + 1));
    EXPECT_NEAR(desc.links[static_cast<size_t>(i)].length, 0.2, 1e-12);
  }
  EXPECT_NEAR(desc.total_length, 0.8, 1e-12);
  EXPECT_GE(desc.tail_end, 0);
  // Pure translations in the parent's frame (same bind rotation as hips).
  EXPECT_NEAR(desc.links[1].neutral_translation.norm(), 0.2, 1e-12);
  EXPECT_NEAR(desc.links[1].neutral_rotation.angularDistance(Eigen::Quaterniond::Identity()), 0.0,
              1e-12);
  EXPECT_TRUE(desc.links[0].neutral_translation.isApprox(Eigen::Vector3d(0, -0.05, -0.1), 1e-12));
}

// step() reads each link's derived copies (parent_to_hips_matrix,
// bind_dir_parent): a chain whose rest frames are edited by hand steps like
// the chain built that way only once refresh_derived() has run.
TEST(BuildChain, RefreshDerivedAfterEditingLinks) {
  const TestRig rig = make_rig(4, true, 0.8);
  ChainParams params;
  ChainParams other = params;
  other.carry_deg = params.carry_deg + 25.0;
  ChainDesc edited, built;
  ASSERT_TRUE(build_chain(rig.input(), params, edited).ok());
  ASSERT_TRUE(build_chain(rig.input(), other, built).ok());
  for (size_t i = 0; i < edited.links.size(); ++i) {  // `built`'s rest frames into `edited`
    edited.links[i].parent_to_hips = built.links[i].parent_to_hips;
    edited.links[i].rest_dir = built.links[i].rest_dir;
    edited.links[i].rest_local_rotation = built.links[i].rest_local_rotation;
  }
  auto points_after_swing = [&](const ChainDesc& desc) {
    ChainState st;
    init_state(desc, st);
    reset(desc, other, st, testing::hip_swing(0.0));
    std::vector<Eigen::Quaterniond> rot(static_cast<size_t>(desc.size()));
    for (int f = 1; f <= 60; ++f) step(desc, other, st, 1.0 / 60.0, testing::hip_swing(f / 60.0), rot);
    return st.points;
  };
  const std::vector<Eigen::Vector3d> want = points_after_swing(built);
  EXPECT_NE(points_after_swing(edited), want) << "stale derived fields should change the motion";
  refresh_derived(edited);
  EXPECT_EQ(points_after_swing(edited), want);
}

TEST(BuildChain, MixamoPrefixAndMetersPerUnit) {
  const TestRig rig = make_rig(3, true, 0.6, 1.0, false, "mixamorig:", 100.0);  // centimetres
  ChainParams params;
  params.meters_per_unit = 0.01;
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  ASSERT_EQ(desc.size(), 3);
  EXPECT_NEAR(desc.total_length, 0.6, 1e-9);
}

TEST(BuildChain, NoTailIsAnError) {
  TestRig rig;
  rig.add("Hips", -1, Eigen::Affine3d::Identity());
  rig.add("Spine", 0, Eigen::Affine3d(Eigen::Translation3d(0, 0.2, 0)));
  ChainDesc desc;
  const ChainStatus st = build_chain(rig.input(), ChainParams{}, desc);
  EXPECT_EQ(st.code, ChainStatus::Code::kNoTail);
  EXPECT_FALSE(st.message.empty());
}

TEST(BuildChain, BrokenChainIsAnError) {
  TestRig rig;
  rig.add("Hips", -1, Eigen::Affine3d::Identity());
  rig.add("Tail_1", 0, Eigen::Affine3d(Eigen::Translation3d(0, 0, -0.1)));
  rig.add("Tail_2", 0, Eigen::Affine3d(Eigen::Translation3d(0, 0, -0.3)));  // parent is Hips
  ChainDesc desc;
  EXPECT_EQ(build_chain(rig.input(), ChainParams{}, desc).code, ChainStatus::Code::kBrokenChain);

  TestRig gap;
  gap.add("Hips", -1, Eigen::Affine3d::Identity());
  gap.add("Tail_1", 0, Eigen::Affine3d(Eigen::Translation3d(0, 0, -0.1)));
  gap.add("Tail_3", 1, Eigen::Affine3d(Eigen::Translation3d(0, 0, -0.3)));
  EXPECT_EQ(build_chain(gap.input(), ChainParams{}, desc).code, ChainStatus::Code::kBrokenChain);
}

TEST(BuildChain, SizeMismatchIsAnError) {
  TestRig rig = make_rig(2);
  rig.parents.pop_back();
  ChainDesc desc;
  EXPECT_EQ(build_chain(rig.input(), ChainParams{}, desc).code, ChainStatus::Code::kBadInput);
}

TEST(BuildChain, NoCarryFullRestCurveGivesBindPose) {
  const TestRig rig = make_rig(4, true, 0.8, 1.0, /*twist_bones=*/true);
  ChainParams params;
  params.carry_deg = 0.0;
  params.rest_curve = 1.0;
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  for (const ChainLink& link : desc.links) {
    EXPECT_LT(link.rest_local_rotation.angularDistance(link.neutral_rotation), 1e-9);
  }
}

// Carry is the lift of the WHOLE tail: with beta = 0 the last link points
// exactly `carry` past the centred root direction, link i at carry*(i+1)/N.
TEST(BuildChain, CarryDistributedOverLinks) {
  for (int n : {1, 2, 4, 8}) {
    const TestRig rig = make_rig(n);
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    // Rest pose directions in the hips frame (hips at bind = identity here).
    Eigen::Quaterniond parent = Eigen::Quaterniond::Identity();
    const Eigen::Vector3d c = Eigen::Vector3d(0, -0.6, -1.0).normalized();
    for (int i = 0; i < n; ++i) {
      const ChainLink& l = desc.links[static_cast<size_t>(i)];
      const Eigen::Vector3d u = parent * l.rest_dir;
      parent = parent * l.rest_local_rotation;
      const double angle = std::acos(std::clamp(u.dot(c), -1.0, 1.0)) * 180.0 / M_PI;
      EXPECT_NEAR(angle, 50.0 * (i + 1) / n, 1e-9) << "n=" << n << " i=" << i;
      EXPECT_NEAR(u.x(), 0.0, 1e-12);
      EXPECT_LT(u.z(), 0.0);  // backwards
    }
  }
}

// A tail held up in its bind pose (issue 45 class 1: down 27 deg off the
// hips, then up 18 and 50 deg, its end a quarter of its length above its
// root) rests on its authored curve with the default rest_curve 0; the
// same tail mirrored to hang (its end below its root) gets the centred arc.
// Rest directions in the hips frame: the carry (about x) is all that parts
// them from the authored ones.
TEST(BuildChain, RaisedTailKeepsAuthoredCurve) {
  for (double up : {1.0, -1.0}) {
    TestRig rig;
    const int root = rig.add("Root", -1, Eigen::Affine3d::Identity());
    const int hips = rig.add("Hips", root, Eigen::Affine3d(Eigen::Translation3d(0, 1, 0)));
    const double elevation_deg[3] = {-27.0, 18.0, 50.0};
    Eigen::Vector3d p(0, 1, -0.1);
    std::vector<Eigen::Vector3d> authored;
    int parent = hips;
    for (int i = 0; i < 3; ++i) {
      const Eigen::Affine3d at(Eigen::Translation3d{p});
      parent = rig.add("Tail_" + std::to_string(i + 1), parent, at);
      const double e = up * elevation_deg[i] * M_PI / 180.0;
      authored.emplace_back(0, std::sin(e), -std::cos(e));
      p += 0.2 * authored.back();
    }
    rig.add("Tail_End", parent, Eigen::Affine3d(Eigen::Translation3d(p)));
    ChainDesc desc;
    ASSERT_TRUE(build_chain(rig.input(), ChainParams{}, desc).ok());
    Eigen::Quaterniond frame = Eigen::Quaterniond::Identity();
    for (int i = 0; i < 3; ++i) {
      const ChainLink& l = desc.links[static_cast<size_t>(i)];
      const Eigen::Vector3d u = frame * l.rest_dir;
      frame = frame * l.rest_local_rotation;
      const double lift = 50.0 * M_PI / 180.0 * (i + 1) / 3;
      const Eigen::Vector3d unlifted = Eigen::AngleAxisd(-lift, Eigen::Vector3d::UnitX()) * u;
      const double cosine = std::clamp(unlifted.dot(authored[static_cast<size_t>(i)]), -1.0, 1.0);
      const double off_deg = std::acos(cosine) * 180.0 / M_PI;
      if (up > 0) {
        EXPECT_NEAR(off_deg, 0.0, 1e-6) << "raised, link " << i;
      } else if (i > 0) {
        EXPECT_GT(off_deg, 5.0) << "hanging, link " << i;  // straightened onto the root's direction
      }
    }
  }
}

TEST(BuildChain, BugCarryPerJointCompounds) {
  const TestRig rig = make_rig(4);
  testing::SeededBugs bug;
  bug.carry_per_joint = true;
  ChainDesc desc;
  ASSERT_TRUE(testing::build_chain(rig.input(), ChainParams{}, bug, desc).ok());
  Eigen::Quaterniond parent = Eigen::Quaterniond::Identity();
  Eigen::Vector3d u = Eigen::Vector3d::Zero();
  for (const ChainLink& l : desc.links) {
    u = parent * l.rest_dir;
    parent = parent * l.rest_local_rotation;
  }
  const Eigen::Vector3d c = Eigen::Vector3d(0, -0.6, -1.0).normalized();
  EXPECT_GT(std::acos(u.dot(c)) * 180.0 / M_PI, 100.0);
}

// A rotated end bone without Tail_End: the last segment continues the
// incoming tangent in world (bind) space, whatever the last bone's frame.
TEST(BuildChain, MissingEndContinuesTangentInOwnFrame) {
  TestRig rig;
  rig.add("Hips", -1, Eigen::Affine3d(Eigen::Translation3d(0, 1, 0)));
  rig.add("Tail_1", 0, Eigen::Affine3d(Eigen::Translation3d(0, 0.95, -0.1)));
  Eigen::Affine3d last = Eigen::Affine3d::Identity();
  last.translate(Eigen::Vector3d(0, 0.85, -0.3));
  last.rotate(Eigen::AngleAxisd(28.0 * M_PI / 180.0, Eigen::Vector3d::UnitY()) *
              Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitX()));
  rig.add("Tail_2", 1, last);
  ChainParams params;
  ChainDesc desc;
  ASSERT_TRUE(build_chain(rig.input(), params, desc).ok());
  ASSERT_EQ(desc.size(), 2);
  const Eigen::Vector3d incoming = Eigen::Vector3d(0, -0.1, -0.2);
  const Eigen::Quaterniond w_last(last.linear());
  const Eigen::Vector3d world_dir = w_last * desc.links[1].bind_dir_local;
  EXPECT_LT((world_dir - incoming.normalized()).norm(), 1e-12);
  EXPECT_NEAR(desc.links[1].length, incoming.norm(), 1e-12);
  // The naive copy of the parent-frame offset would be wrong here.
  const Eigen::Vector3d naive = desc.links[1].neutral_translation.normalized();
  EXPECT_GT((desc.links[1].bind_dir_local - naive).norm(), 0.1);
}

}  // namespace
}  // namespace solver
