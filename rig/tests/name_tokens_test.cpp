// One bone-name tokenizer (issue 44): every place that reads a name (roles
// and their stop words, the tail and prop masks of grounding and detect, the
// gait token of a clip name) reads the same words. Before, grounding split
// "TAILBone" into "tailbone" while roles read "tail bone".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rig/anatomy/name_tokens.h"
#include "rig/anatomy/role_names.h"
#include "rig/anatomy/skin_queries.h"
#include "test_skeleton.h"

namespace rig {
namespace {

using Tokens = std::vector<std::string>;

TEST(NameTokens, SplitAtSeparatorsCaseChangesCapitalRunsAndDigits) {
  EXPECT_EQ(name_tokens("TAILBone"), (Tokens{"tail", "bone"}));
  EXPECT_EQ(name_tokens("FKTail"), (Tokens{"fk", "tail"}));
  EXPECT_EQ(name_tokens("tail_01"), (Tokens{"tail", "01"}));
  EXPECT_EQ(name_tokens("Tail.001"), (Tokens{"tail", "001"}));
  EXPECT_EQ(name_tokens("b_Tail01_012"), (Tokens{"b", "tail", "01", "012"}));
  EXPECT_EQ(name_tokens("mixamorig:Hips"), (Tokens{"mixamorig", "hips"}));
  EXPECT_EQ(name_tokens("LeftUpLeg"), (Tokens{"left", "up", "leg"}));
  EXPECT_EQ(name_tokens(""), Tokens{});
  EXPECT_EQ(name_tokens("Retail"), (Tokens{"retail"}));  // whole tokens, never substrings
}

// Each reader of names sees a tail in the same names, and in no other.
TEST(NameTokens, EveryReaderSeesTheSameTailNames) {
  const std::vector<std::string> tails{"TAILBone", "FKTail", "tail_01", "Tail.001", "b_Tail01_012", "mixamorig:Tail1"};
  const std::vector<std::string> others{"Retail", "Detail_01", "mixamorig:Hips", "ForeArm.L"};
  for (const std::string& n : tails) {
    SCOPED_TRACE(n);
    const Tokens t = name_tokens(n);
    EXPECT_NE(std::find(t.begin(), t.end(), "tail"), t.end());
    EXPECT_TRUE(name_has_token(n, "tail"));
    EXPECT_TRUE(name_has_token(n, "TAIL"));  // case-insensitive token
    EXPECT_TRUE(is_non_body_name(n));        // roles: a tail word keeps a bone out of the body
    EXPECT_EQ(role_from_name(n).part, BodyPart::kNone);
    // Grounding's and detect's tail mask: a role-less joint with a tail name
    // under the hips of a biped.
    std::vector<test::JointSpec> joints = test::mixamo_biped_joints();
    joints.push_back({n, 0, Vec3(0, 0.9, -0.2)});
    const Skeleton sk = test::make_skeleton(joints);
    EXPECT_TRUE(tail_joint_mask(sk)[sk.size() - 1]);
  }
  for (const std::string& n : others) {
    SCOPED_TRACE(n);
    EXPECT_FALSE(name_has_token(n, "tail"));
  }
}

}  // namespace
}  // namespace rig
