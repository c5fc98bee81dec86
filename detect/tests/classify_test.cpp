#include "detect/classify.h"

#include <gtest/gtest.h>

namespace detect {
namespace {

using rig::BodyPart;

RegionFacts tail_facts(BodyPart part) {
  RegionFacts f;
  f.attachment = part;
  f.reach = 0.3;
  f.centroid_ratio = 0.6;
  f.elongation = 2.6;
  f.flatness = 1.2;
  return f;
}

TEST(Classify, PelvisTailBecomesChain) {
  auto c = classify(tail_facts(BodyPart::kHips), {});
  EXPECT_EQ(c.cls, AppendageClass::kTail);
  EXPECT_EQ(c.action, Action::kChain);
  c = classify(tail_facts(BodyPart::kThigh), {}, /*chain_tails=*/false);
  EXPECT_EQ(c.action, Action::kRigid);
  EXPECT_TRUE(c.rigid_to_hips);
}

TEST(Classify, SpineLongIsWornRigidToItsBone) {
  const auto c = classify(tail_facts(BodyPart::kSpine), {});
  EXPECT_EQ(c.cls, AppendageClass::kWorn);
  EXPECT_EQ(c.action, Action::kRigid);
  EXPECT_FALSE(c.rigid_to_hips);
}

TEST(Classify, HeadIsEarsOrHairUnchanged) {
  auto f = tail_facts(BodyPart::kHead);
  f.above_attachment = true;
  EXPECT_EQ(classify(f, {}).cls, AppendageClass::kEars);
  EXPECT_EQ(classify(f, {}).action, Action::kUnchanged);
  f.above_attachment = false;
  EXPECT_EQ(classify(f, {}).cls, AppendageClass::kHair);
}

TEST(Classify, ShortOrBulgeOrSheetIsNotATail) {
  auto f = tail_facts(BodyPart::kHips);
  f.reach = 0.05;  // a bunny's blob
  EXPECT_NE(classify(f, {}).action, Action::kChain);
  f = tail_facts(BodyPart::kHips);
  f.centroid_ratio = 0.2;  // torso skin wrapping the bone
  EXPECT_NE(classify(f, {}).action, Action::kChain);
  f = tail_facts(BodyPart::kSpine);
  f.flatness = 6.0;  // a wing or long hair: a sheet
  EXPECT_EQ(classify(f, {}).action, Action::kUnchanged);
  f = tail_facts(BodyPart::kHips);
  f.flatness = 6.0;  // a tail curled in a plane is still a tail
  EXPECT_EQ(classify(f, {}).action, Action::kChain);
}

TEST(Classify, WideTrunkUntouchedUnlessRequested) {
  auto f = tail_facts(BodyPart::kHips);
  f.elongation = 1.1;
  EXPECT_EQ(classify(f, {}).cls, AppendageClass::kWide);
  EXPECT_EQ(classify(f, {}).action, Action::kUnchanged);
  ClassifyParams p;
  p.rigid_wide = true;
  EXPECT_EQ(classify(f, p).action, Action::kRigid);
  EXPECT_TRUE(classify(f, p).rigid_to_hips);
}

TEST(Classify, SleevesUntouched) {
  const auto c = classify(tail_facts(BodyPart::kForearm), {});
  EXPECT_EQ(c.action, Action::kUnchanged);
}

}  // namespace
}  // namespace detect
