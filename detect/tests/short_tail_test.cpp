// Issue 45 class 3: a short slender tail (a camelid's, 4-7 % of H) on
// shells of its own grows one chain that drives the whole tail; a stubby
// round tail and a bunny's blob stay as rigged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "check_util.h"
#include "detect/classify.h"
#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/anatomy/skin_queries.h"

namespace detect {
namespace {

using detect_test::describe;

RegionFacts short_tail_facts() {
  RegionFacts f;
  f.attachment = rig::BodyPart::kHips;
  f.reach = 0.10;  // the short_tail fixture's: 0.101 H
  f.centroid_ratio = 0.84;
  f.elongation = 2.28;
  f.flatness = 1.03;
  f.own_shells = true;
  return f;
}

TEST(ShortTail, ASlenderRoundTailOnItsOwnShellsIsATail) {
  const Classification c = classify(short_tail_facts(), {});
  EXPECT_EQ(c.cls, AppendageClass::kTail);
  EXPECT_EQ(c.action, Action::kChain);
  EXPECT_TRUE(c.short_tail);
  EXPECT_EQ(classify(short_tail_facts(), {}, /*chain_tails=*/false).action, Action::kRigid);
}

TEST(ShortTail, NotOnTheBodysShellNorRoundNorBelowTheShortReach) {
  RegionFacts f = short_tail_facts();
  f.own_shells = false;  // on the body's shell its near part is unknown
  EXPECT_NE(classify(f, {}).cls, AppendageClass::kTail);
  f = short_tail_facts();
  f.elongation = 1.3;  // a bunny's blob, a stubby tail
  EXPECT_NE(classify(f, {}).cls, AppendageClass::kTail);
  f = short_tail_facts();
  f.reach = 0.04;  // a bump
  EXPECT_NE(classify(f, {}).cls, AppendageClass::kTail);
  f = short_tail_facts();
  f.flatness = 4.0;  // a flap
  EXPECT_NE(classify(f, {}).cls, AppendageClass::kTail);
  f = short_tail_facts();
  f.attachment = rig::BodyPart::kSpine;  // not at the pelvis
  EXPECT_NE(classify(f, {}).cls, AppendageClass::kTail);
  f = short_tail_facts();
  f.reach = 0.3;  // long: the long-tail rule, not the short one
  EXPECT_FALSE(classify(f, {}).short_tail);
  EXPECT_EQ(classify(f, {}).action, Action::kChain);
}

double iou(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  const double u = static_cast<double>(a.size() + b.size() - both.size());
  return u > 0 ? both.size() / u : 0.0;
}

// The chain takes the whole tail, both its shells: the region holds every
// tail vertex and nothing of the body, and the chain dominates them.
void expect_whole_tail_chain(const std::string& name, const fixtures::FixtureParams& p) {
  SCOPED_TRACE(name);
  rig::Character c;
  fixtures::GroundTruth truth;
  std::string error;
  ASSERT_TRUE(fixtures::make_fixture(name, p, c, &error, &truth)) << error;
  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  const std::string info = describe(c, r.analysis);
  ASSERT_EQ(r.chains, 1) << info;
  const fixtures::Appendage& tail = truth.appendages.at(0);
  const Region* grown = nullptr;
  for (const Region& reg : r.analysis.regions)
    if (!reg.chain_joint_ids.empty()) grown = &reg;
  ASSERT_NE(grown, nullptr);
  EXPECT_EQ(grown->vertices, tail.vertices) << info;
  std::vector<int> dominated;
  for (int v = 0; v < r.character.mesh.vertex_count(); ++v) {
    const int d = rig::dominant_joint(r.character.skin.influences[v]);
    if (std::find(grown->chain_joint_ids.begin(), grown->chain_joint_ids.end(), d) != grown->chain_joint_ids.end())
      dominated.push_back(v);
  }
  const double i = iou(dominated, tail.vertices);
  std::printf("%s: tail %zu vertices, region %zu, chain-dominated %zu, iou %.3f, L/truth %.3f, K %d\n", name.c_str(),
              tail.vertices.size(), grown->vertices.size(), dominated.size(), i, grown->length / tail.length,
              grown->bones);
  EXPECT_GE(i, 0.9) << info;
  EXPECT_NEAR(grown->length / tail.length, 1.0, 0.15) << info;
}

TEST(ShortTail, ItsChainDrivesTheWholeTail) {
  // A two-shell furred tail 6 % of H and a bare one-shell tail 4.5 % of H
  // drooping lower: the rule is no one file's.
  expect_whole_tail_chain("short_tail", fixtures::default_params("short_tail"));
  expect_whole_tail_chain("short_tail_bare", fixtures::default_params("short_tail_bare"));
}

TEST(ShortTail, AStubbyRoundTailStaysAsRigged) {
  rig::Character c;
  std::string error;
  ASSERT_TRUE(fixtures::make_fixture("stubby", fixtures::default_params("stubby"), c, &error)) << error;
  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  EXPECT_EQ(r.chains, 0) << describe(c, r.analysis);
  EXPECT_EQ(r.rigid, 0);
}

}  // namespace
}  // namespace detect
