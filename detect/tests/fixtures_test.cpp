// End-to-end tests on the procedural fixtures (issue 5 "Done when").
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "check_util.h"
#include "detect/find_appendages.h"
#include "detect/geometry/segment_distance.h"
#include "fixtures/fixtures.h"
#include "rig/retarget/contact/grounding.h"

namespace detect {
namespace {

using detect_test::check_weights;
using detect_test::count_action;
using detect_test::describe;

struct Built {
  rig::Character character;
  fixtures::GroundTruth truth;
};

Built build(const std::string& name, const fixtures::FixtureParams& params) {
  Built b;
  std::string error;
  EXPECT_TRUE(fixtures::make_fixture(name, params, b.character, &error, &b.truth))
      << name << ": " << error;
  return b;
}

Built build(const std::string& name) { return build(name, fixtures::default_params(name)); }

const fixtures::Appendage* truth_tail(const fixtures::GroundTruth& t) {
  for (const auto& a : t.appendages) {
    if (a.expected_action == "chain") return &a;
  }
  return nullptr;
}

// One chain at the hips, L within 5 % of the fixture tail, K by the rule,
// bone distance at least halved, region inside the true tail.
void expect_one_chain(const std::string& name, const fixtures::FixtureParams& params,
                      int expected_bones = -1, double length_tolerance = 0.05) {
  SCOPED_TRACE(name);
  const Built b = build(name, params);
  if (b.character.mesh.positions.empty()) return;
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kChain, {}, r).ok());
  const std::string info = describe(b.character, r.analysis);
  ASSERT_EQ(count_action(r.analysis, Action::kChain), 1) << info;
  EXPECT_EQ(r.chains, 1);
  const fixtures::Appendage* truth = truth_tail(b.truth);
  ASSERT_NE(truth, nullptr);
  for (const auto& reg : r.analysis.regions) {
    if (reg.classification.action != Action::kChain) continue;
    EXPECT_EQ(reg.classification.cls, AppendageClass::kTail);
    EXPECT_TRUE(reg.attachment_role.part == rig::BodyPart::kHips ||
                reg.attachment_role.part == rig::BodyPart::kThigh)
        << info;
    EXPECT_EQ(b.character.skeleton.names[r.analysis.hips], truth->attachment);
    EXPECT_NEAR(reg.length / truth->length, 1.0, length_tolerance) << info;
    const int k = bone_count(truth->length, r.analysis.height);
    if (expected_bones > 0) {
      EXPECT_EQ(reg.bones, expected_bones) << info;
    } else {
      EXPECT_NEAR(reg.bones, k, 1) << info;
    }
    EXPECT_LE(reg.bone_distance_after, 0.5 * reg.bone_distance_before) << info;
    // The detected region lies on the true tail. A split-off tail also takes
    // its root skin below the cut (tail_root.h), part of which is the blend
    // fillet the fixture counts as body skin (fox_fused: 93.2 % inside).
    int inside = 0;
    for (int v : reg.vertices) {
      inside += std::binary_search(truth->vertices.begin(), truth->vertices.end(), v);
    }
    const double precision = reg.cut_level > 0.0 ? 0.92 : 0.98;
    EXPECT_GE(inside, static_cast<int>(precision * reg.vertices.size())) << info;
    EXPECT_GE(reg.vertices.size(), truth->vertices.size() / 2) << info;
    // New joints: Tail_1..Tail_K + Tail_End appended after the old ones.
    ASSERT_EQ(static_cast<int>(reg.chain_joint_ids.size()), reg.bones + 1);
    EXPECT_EQ(reg.chain_joint_ids.front(), b.character.skeleton.size());
    EXPECT_EQ(r.character.skeleton.names[reg.chain_joint_ids.back()], "Tail_End");
    EXPECT_EQ(r.character.skeleton.parents[reg.chain_joint_ids.front()], r.analysis.hips);
  }
  check_weights(b.character, r);
  // Clips untouched.
  ASSERT_EQ(r.character.clips.size(), b.character.clips.size());
  for (size_t i = 0; i < r.character.clips.size(); ++i) {
    EXPECT_EQ(r.character.clips[i].tracks.size(), b.character.clips[i].tracks.size());
  }
}

TEST(Fixtures, FoxOneChainAtHips) { expect_one_chain("fox", fixtures::default_params("fox"), 4); }

// The fused tail's far skin joins the torso's far skin into one region that
// fails the protrusion test; the tail is split off it (find_tail_core).
TEST(Fixtures, FoxFusedOneChain) { expect_one_chain("fox_fused", fixtures::default_params("fox_fused")); }

// The cut of the fused tail runs slanted across its root: the base below it
// stays on the thighs beside chain-driven skin unless the root skin joins
// (tail_root.h). Vertices the chain dominates vs the fixture's tail: 0.83
// without, 0.93 with.
// Issue 45 class 4: lying level, the whole skin is far skin, one flat region
// (a sheet) holding trunk, legs and tail; its tail, straight back between the
// trailing legs, is found with the legs set aside (beside_legs.h). L counts
// from the pelvis joint, a tenth of the tail ahead of its root: within 15 %.
TEST(Fixtures, FlyingOneChainOnTheTail) {
  expect_one_chain("flying", fixtures::default_params("flying"), -1, 0.15);
}

TEST(Fixtures, FoxFusedRootSkinJoinsTheTail) {
  const Built b = build("fox_fused");
  const fixtures::Appendage* truth = truth_tail(b.truth);
  ASSERT_NE(truth, nullptr);
  auto iou_with = [&](const Params& p) {
    FixResult r;
    EXPECT_TRUE(fix(b.character, Mode::kChain, p, r).ok());
    std::vector<char> chain(r.character.skeleton.size(), 0);
    for (const auto& reg : r.analysis.regions)
      for (int j : reg.chain_joint_ids) chain[j] = 1;
    int both = 0, mine = 0;
    for (int v = 0; v < r.character.mesh.vertex_count(); ++v) {
      const int d = rig::dominant_joint(r.character.skin.influences[v]);
      if (d < 0 || !chain[d]) continue;
      ++mine;
      both += std::binary_search(truth->vertices.begin(), truth->vertices.end(), v);
    }
    return static_cast<double>(both) / (mine + static_cast<double>(truth->vertices.size()) - both);
  };
  Params off;
  off.root_grow_margin = off.root_grow_margin_past = 0.0;
  const double without = iou_with(off), with = iou_with(Params{});
  EXPECT_LT(without, 0.86);
  EXPECT_GE(with, 0.9);
}

// The split is what finds the fused tail: without it the fused region is no
// appendage; with it the tail is cut above the trunk's far skin.
TEST(Fixtures, FoxFusedTailIsSplitOffTheTrunk) {
  const Built b = build("fox_fused");
  Params off;
  off.split_step = 0.0;
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kReport, off, r).ok());
  EXPECT_EQ(count_action(r.analysis, Action::kChain), 0) << describe(b.character, r.analysis);
  const Params on;
  ASSERT_TRUE(fix(b.character, Mode::kReport, on, r).ok());
  ASSERT_EQ(count_action(r.analysis, Action::kChain), 1) << describe(b.character, r.analysis);
  for (const auto& reg : r.analysis.regions) {
    if (reg.classification.action != Action::kChain) continue;
    EXPECT_GT(reg.cut_level, on.far_fraction);
    EXPECT_GT(reg.root_offset, 0.0);
    EXPECT_EQ(reg.joints.front(), rig::Vec3(detect::joint_position(b.character.skeleton, reg.attachment)));
  }
  // Deterministic: the same analysis twice.
  FixResult again;
  ASSERT_TRUE(fix(b.character, Mode::kReport, on, again).ok());
  ASSERT_EQ(again.analysis.regions.size(), r.analysis.regions.size());
  for (size_t i = 0; i < r.analysis.regions.size(); ++i) {
    EXPECT_EQ(again.analysis.regions[i].vertices, r.analysis.regions[i].vertices);
    EXPECT_EQ(again.analysis.regions[i].length, r.analysis.regions[i].length);
  }
}

TEST(Fixtures, MouseOneChain) { expect_one_chain("mouse", fixtures::default_params("mouse")); }

TEST(Fixtures, FoxShellsMergeIntoOneRegion) {
  const Built b = build("fox");
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kReport, {}, r).ok());
  int tails = 0;
  for (const auto& reg : r.analysis.regions) tails += reg.classification.cls == AppendageClass::kTail;
  EXPECT_EQ(tails, 1) << describe(b.character, r.analysis);
  // Report mode changes nothing.
  EXPECT_EQ(check_weights(b.character, FixResult{b.character, {}, 0, 0}), 0);
  for (int v = 0; v < b.character.mesh.vertex_count(); ++v) {
    EXPECT_TRUE(detect_test::same_influences(b.character.skin.influences[v],
                                             r.character.skin.influences[v]));
  }
}

TEST(Fixtures, FoxRigidMode) {
  const Built b = build("fox");
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kRigid, {}, r).ok());
  EXPECT_EQ(r.chains, 0);
  EXPECT_EQ(r.rigid, 1) << describe(b.character, r.analysis);
  EXPECT_EQ(r.character.skeleton.size(), b.character.skeleton.size());
  for (const auto& reg : r.analysis.regions) {
    if (reg.classification.cls != AppendageClass::kTail) continue;
    for (int v : reg.vertices) {
      ASSERT_EQ(r.character.skin.influences[v].size(), 1u);
      EXPECT_EQ(r.character.skin.influences[v][0].joint, r.analysis.hips);
      EXPECT_EQ(r.character.skin.influences[v][0].weight, 1.0);
    }
  }
  check_weights(b.character, r);
}

class Untouched : public ::testing::TestWithParam<std::string> {};

TEST_P(Untouched, NoChainWeightsBitIdentical) {
  const Built b = build(GetParam());
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kChain, {}, r).ok());
  const std::string info = describe(b.character, r.analysis);
  EXPECT_EQ(count_action(r.analysis, Action::kChain), 0) << info;
  EXPECT_EQ(count_action(r.analysis, Action::kRigid), 0) << info;
  EXPECT_EQ(r.character.skeleton.size(), b.character.skeleton.size());
  EXPECT_EQ(check_weights(b.character, r), 0) << info;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, Untouched,
                         ::testing::Values("caped", "skirted", "longhair", "winged", "eared",
                                           "stubby", "tailless"));

TEST(Fixtures, SheathRigidToItsSpineBone) {
  const Built b = build("sheath");
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kChain, {}, r).ok());
  const std::string info = describe(b.character, r.analysis);
  EXPECT_EQ(count_action(r.analysis, Action::kChain), 0) << info;
  ASSERT_EQ(count_action(r.analysis, Action::kRigid), 1) << info;
  std::string expected;
  for (const auto& a : b.truth.appendages) {
    if (a.expected_action == "rigid") expected = a.attachment;
  }
  for (const auto& reg : r.analysis.regions) {
    if (reg.classification.action != Action::kRigid) continue;
    EXPECT_EQ(reg.classification.cls, AppendageClass::kWorn);
    EXPECT_EQ(r.analysis.roles[reg.rigid_joint].part, rig::BodyPart::kSpine);
    EXPECT_EQ(b.character.skeleton.names[reg.rigid_joint], expected) << info;
    for (int v : reg.vertices) {
      ASSERT_EQ(r.character.skin.influences[v].size(), 1u);
      EXPECT_EQ(r.character.skin.influences[v][0].joint, reg.rigid_joint);
    }
  }
  check_weights(b.character, r);
}

// On request the skirt (a shell of its own) is made rigid on the hips; the
// trunk's own far skin, a wide region too, is not: it holds skin the arms
// and thighs drive (issue 45; before, all 5060 vertices of it were made
// rigid on Hips with the skirt).
TEST(Fixtures, RigidWideOnRequest) {
  const Built b = build("skirted");
  Params p;
  p.classify.rigid_wide = true;
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kChain, p, r).ok());
  const std::string info = describe(b.character, r.analysis);
  EXPECT_EQ(count_action(r.analysis, Action::kChain), 0) << info;
  EXPECT_EQ(r.rigid, 1) << info;
  for (const auto& reg : r.analysis.regions) {
    if (reg.classification.cls != AppendageClass::kWide) continue;
    EXPECT_EQ(reg.classification.action, reg.on_body ? Action::kUnchanged : Action::kRigid) << info;
    if (reg.on_body) {
      EXPECT_NE(reg.reason.find("a body limb, never worn"), std::string::npos) << reg.reason;
    }
  }
  check_weights(b.character, r);
}

// Parameter sweep: the same answer at any size, tail length and unit.
struct Sweep {
  const char* label;
  double height, tail_length, unit_scale, armature_scale;
};

class FoxSweep : public ::testing::TestWithParam<Sweep> {};

TEST_P(FoxSweep, OneChain) {
  const Sweep s = GetParam();
  auto p = fixtures::default_params("fox");
  p.height = s.height;
  p.tail_length = s.tail_length;
  p.unit_scale = s.unit_scale;
  p.armature_scale = s.armature_scale;
  SCOPED_TRACE(s.label);
  // Same answer everywhere; L within 5 % except the 25 %-of-H tail, where the
  // surface path over the root cap adds ~7 % (see the final report).
  expect_one_chain("fox", p, -1, s.tail_length < 0.3 ? 0.08 : 0.05);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, FoxSweep,
    ::testing::Values(Sweep{"small", 0.5, 0.42, 1, 1}, Sweep{"tall", 3.0, 0.42, 1, 1},
                      Sweep{"short_tail", 1.91, 0.25, 1, 1}, Sweep{"long_tail", 1.91, 0.6, 1, 1},
                      Sweep{"centimetres", 1.91, 0.42, 100, 1},
                      Sweep{"armature_001", 1.91, 0.42, 100, 0.01},
                      Sweep{"small_long", 0.5, 0.6, 1, 1}, Sweep{"tall_short", 3.0, 0.25, 1, 1}),
    [](const auto& tp) { return std::string(tp.param.label); });

TEST(Fixtures, MouseChainedHasBonesAlready) {
  const Built b = build("mouse_chained");
  FixResult r;
  ASSERT_TRUE(fix(b.character, Mode::kChain, {}, r).ok());
  EXPECT_EQ(count_action(r.analysis, Action::kChain), 0) << describe(b.character, r.analysis);
}

}  // namespace
}  // namespace detect
