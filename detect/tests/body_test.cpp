// Issue 11: the body read from the skeleton's shape, ownership of a region's
// skin, do-no-harm on tiny cases, chain names, bounded region splitting.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "check_util.h"
#include "detect/body.h"
#include "detect/rewrite/grow_chain.h"
#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/anatomy/roles.h"
#include "test_util.h"

namespace detect {
namespace {

using rig::BodyPart;
using rig::Role;
using rig::Side;
using rig::Vec3;

// A quadruped without a bone named Hips: Body (weightless root) > Back >
// {Torso > Neck > Head, Torso > FrontShoulder > FrontUpperLeg > FrontLowerLeg,
// BackShoulder > BackLeg > BackUpperLeg > BackLowerLeg, Tail1 > Tail2}.
// Names gave the hips role to BackLeg.L (the trap of issue 11).
struct Quadruped {
  rig::Skeleton sk;
  std::vector<char> deforming;
  int back = -1, back_leg_l = -1, tail1 = -1, tail2 = -1;
};

// Joints added one by one (name, parent, bind position, role), then built.
struct SkeletonBuilder {
  std::vector<std::string> names;
  std::vector<int> parents;
  std::vector<Vec3> pos;
  std::vector<Role> roles;
  int add(const std::string& n, int p, Vec3 x, Role r) {
    names.push_back(n);
    parents.push_back(p);
    pos.push_back(x);
    roles.push_back(r);
    return static_cast<int>(names.size()) - 1;
  }
  rig::Skeleton build() const { return detect_test::make_skeleton(names, parents, pos, roles); }
};

// ik_feet: the shins end at the knee and hock, the front ones lower, and
// the feet that stand on the floor hang from Body (an IK rig's, the Wolf's).
Quadruped quadruped(bool ik_feet = false) {
  SkeletonBuilder b;
  Quadruped q;
  const int body = b.add("Body", -1, {0, 0.5, 0}, {BodyPart::kSpine, Side::kCenter});
  q.back = b.add("Back", body, {0, 1.0, -0.6}, {BodyPart::kSpine, Side::kCenter});
  const int torso = b.add("Torso", q.back, {0, 1.0, 0.4}, {BodyPart::kSpine, Side::kCenter});
  const int neck = b.add("Neck", torso, {0, 1.2, 0.8}, {BodyPart::kNeck, Side::kCenter});
  b.add("Head", neck, {0, 1.4, 1.1}, {BodyPart::kHead, Side::kCenter});
  for (int s = 0; s < 2; ++s) {
    const double x = s == 0 ? 0.2 : -0.2;
    const Side side = s == 0 ? Side::kLeft : Side::kRight;
    const std::string sfx = s == 0 ? ".L" : ".R";
    const int fs = b.add("FrontShoulder" + sfx, torso, {x, 0.9, 0.4}, {BodyPart::kShoulder, side});
    const int fu = b.add("FrontUpperLeg" + sfx, fs, {x, 0.8, 0.4}, {BodyPart::kThigh, side, ik_feet});
    b.add("FrontLowerLeg" + sfx, fu, {x, ik_feet ? 0.3 : 0.05, 0.4}, {BodyPart::kShin, side, ik_feet});
    const int bs = b.add("BackShoulder" + sfx, q.back, {x, 0.9, -0.6}, {BodyPart::kShoulder, side});
    const int bl = b.add("BackLeg" + sfx, bs, {x, 0.85, -0.6},
                       s == 0 ? Role{BodyPart::kHips, Side::kCenter} : Role{});
    if (s == 0) q.back_leg_l = bl;
    const int bu = b.add("BackUpperLeg" + sfx, bl, {x, 0.8, -0.6}, {BodyPart::kThigh, side});
    b.add("BackLowerLeg" + sfx, bu, {x, ik_feet ? 0.45 : 0.05, -0.6}, {BodyPart::kShin, side});
    if (ik_feet) {
      b.add("IKFrontLeg" + sfx, body, {x, 0.05, 0.45}, {BodyPart::kFoot, side, true});
      b.add("IKBackLeg" + sfx, body, {x, 0.05, -0.55}, {BodyPart::kFoot, side});
    }
  }
  q.tail1 = b.add("Tail1", q.back, {0, 0.95, -0.8}, {});
  q.tail2 = b.add("Tail2", q.tail1, {0, 0.8, -1.2}, {});
  q.sk = b.build();
  q.deforming.assign(b.names.size(), 1);
  q.deforming[body] = 0;
  return q;
}

TEST(Body, QuadrupedPelvisIsWhereHindLegsAndTailMeet) {
  const Quadruped q = quadruped();
  const BodyReading b = read_body(q.sk, q.deforming);
  EXPECT_EQ(b.legs, 4);
  EXPECT_EQ(b.hind_legs, 2);
  ASSERT_EQ(b.pelvis, q.back) << q.sk.names[b.pelvis];
  EXPECT_TRUE(b.pelvis_zone[q.back]);
  EXPECT_TRUE(b.hind_leg_root[q.back_leg_l]);  // a leg bone, whatever its name said
  EXPECT_FALSE(b.pelvis_zone[q.back_leg_l]);
  EXPECT_EQ(b.tail_bones, (std::vector<int>{q.tail1, q.tail2}));
  EXPECT_FALSE(b.body[q.tail1]);
}

// An IK rig's feet hang from the root: the legs reach the floor through
// them. Without them only the front legs, whose shins end lower (knees
// below hocks), read as legs, and the pelvis was the chest's Torso.
TEST(Body, LegsReachTheFloorThroughTheirDetachedFeet) {
  const Quadruped q = quadruped(true);
  const BodyReading b = read_body(q.sk, q.deforming);
  EXPECT_EQ(b.legs, 4);
  EXPECT_EQ(b.hind_legs, 2);
  ASSERT_GE(b.pelvis, 0);
  EXPECT_EQ(b.pelvis, q.back) << q.sk.names[b.pelvis];
  EXPECT_EQ(b.tail_bones, (std::vector<int>{q.tail1, q.tail2}));
}

// Wings on the pelvis (a bird's, or a spider's hind legs) run sideways
// across the hips: no tail bones. They were read as the rig's tail ("the rig
// already has tail bones (6 joints from Wing1.L)"), which kept a real
// boneless tail from its chain.
TEST(Body, ChainsRunningSidewaysFromThePelvisAreNoTailBones) {
  Quadruped q = quadruped();
  int wing = q.back;
  for (int k = 1; k <= 2; ++k)
    wing = detect_test::append_joint(q.sk, "Wing" + std::to_string(k) + ".L", wing,
                                     detect_test::translation(Vec3(0.1 + 0.3 * k, 1.05, -0.6)));
  q.deforming.resize(q.sk.size(), 1);
  const BodyReading b = read_body(q.sk, q.deforming);
  EXPECT_EQ(b.tail_bones, (std::vector<int>{q.tail1, q.tail2}));
}

// A Quaternius-style humanoid: Root > Body > {Hips > Abdomen > Chest > Neck
// > Head, UpperLeg > LowerLeg > Foot}; Root carries no skin. `hips_y` places
// Hips; `legs_on_root` drops Body and hangs the thighs and Hips from Root
// (the Witch).
rig::Skeleton humanoid(double hips_y, bool legs_on_root, std::vector<char>& deforming) {
  SkeletonBuilder b;
  const int root = b.add("Root", -1, {0, 0, 0}, {});
  const int body = legs_on_root ? root : b.add("Body", root, {0, 1.0, 0}, {BodyPart::kHips, Side::kCenter});
  const int hips = b.add("Hips", body, {0, hips_y, -0.15}, {BodyPart::kSpine, Side::kCenter});
  const int abdomen = b.add("Abdomen", hips, {0, 1.2, -0.05}, {BodyPart::kSpine, Side::kCenter});
  const int chest = b.add("Chest", abdomen, {0, 1.4, 0}, {BodyPart::kSpine, Side::kCenter});
  const int neck = b.add("Neck", chest, {0, 1.6, 0}, {BodyPart::kNeck, Side::kCenter});
  b.add("Head", neck, {0, 1.75, 0}, {BodyPart::kHead, Side::kCenter});
  for (int s = 0; s < 2; ++s) {
    const double x = s == 0 ? 0.12 : -0.12;
    const Side side = s == 0 ? Side::kLeft : Side::kRight;
    const int up = b.add(s == 0 ? "UpperLeg.L" : "UpperLeg.R", body, {x, 0.95, 0}, {BodyPart::kThigh, side});
    const int low = b.add(s == 0 ? "LowerLeg.L" : "LowerLeg.R", up, {x, 0.5, 0}, {BodyPart::kShin, side});
    b.add(s == 0 ? "Foot.L" : "Foot.R", low, {x, 0.05, 0}, {BodyPart::kFoot, side});
  }
  deforming.assign(b.names.size(), 1);
  deforming[root] = 0;
  return b.build();
}

// The Witch: thighs hung from a weightless Root on the floor. Its pelvis is
// the first skinned joint toward the head (Hips), not the floor-level Root:
// a tail grafted at the Witch's rump was read as hanging from the spine and
// made rigid as a worn item.
TEST(Body, LegsOnAWeightlessRootReadTheFirstSkinnedTrunkJointAsPelvis) {
  std::vector<char> deforming;
  const rig::Skeleton sk = humanoid(0.95, true, deforming);
  const BodyReading b = read_body(sk, deforming);
  EXPECT_EQ(b.legs, 2);
  ASSERT_GE(b.pelvis, 0);
  EXPECT_EQ(sk.names[b.pelvis], "Hips");
}

// The Bunny: `Hips` under the pelvis `Body`, behind and below the hip
// sockets, is the pelvis' bottom (a tail grafted there was made rigid as
// worn); a spine that rises from the pelvis, as a Mixamo `Spine` does, is not.
TEST(Body, ASpineJointBelowTheHipSocketsIsInThePelvisZone) {
  std::vector<char> deforming;
  const rig::Skeleton low = humanoid(0.8, false, deforming);
  const BodyReading b = read_body(low, deforming);
  ASSERT_GE(b.pelvis, 0);
  EXPECT_EQ(low.names[b.pelvis], "Body");
  EXPECT_TRUE(b.pelvis_zone[low.find("Hips")]);
  EXPECT_FALSE(b.pelvis_zone[low.find("Abdomen")]);

  const rig::Skeleton high = humanoid(1.05, false, deforming);
  const BodyReading c = read_body(high, deforming);
  EXPECT_EQ(high.names[c.pelvis], "Body");
  EXPECT_FALSE(c.pelvis_zone[high.find("Hips")]);
}

TEST(Body, StrippedQuadrupedHasNoTailBones) {
  Quadruped q = quadruped();
  q.deforming[q.tail1] = q.deforming[q.tail2] = 0;  // weightless: not a rigged tail
  EXPECT_TRUE(read_body(q.sk, q.deforming).tail_bones.empty());
}

TEST(Body, OwnershipCountsDominantJoints) {
  const Quadruped q = quadruped();
  const BodyReading b = read_body(q.sk, q.deforming);
  rig::Skin skin;
  skin.influences = {{{q.tail1, 0.7}, {q.back, 0.3}},  // tail bone
                     {{q.tail2, 1.0}},                  // tail bone
                     {{q.back, 0.6}, {q.tail1, 0.4}},   // body
                     {{q.back_leg_l, 1.0}}};            // leg (limb)
  const Ownership o = ownership(skin, {0, 1, 2, 3}, b, q.sk.size());
  EXPECT_EQ(o.vertices, 4);
  EXPECT_DOUBLE_EQ(o.non_body, 0.5);
  EXPECT_DOUBLE_EQ(o.limb, 0.25);
  EXPECT_EQ(o.top_non_body == q.tail1 || o.top_non_body == q.tail2, true);
}

// Two chains on one rig never share or interleave names.
TEST(Body, SecondChainGetsItsOwnPrefix) {
  rig::Character c;
  c.skeleton = detect_test::make_skeleton({"Hips"}, {-1}, {Vec3(0, 1, 0)},
                                          {Role{BodyPart::kHips, Side::kCenter}});
  const std::vector<Vec3> joints = {{0, 1, 0}, {0, 1, -0.2}, {0, 1, -0.4}, {0, 1, -0.6}};
  std::vector<int> first, second;
  rig::Character one = add_chain(c, 0, joints, 0.6, {}, {}, ChainParams{}, &first);
  rig::Character two = add_chain(one, 0, joints, 0.6, {}, {}, ChainParams{}, &second);
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(two.skeleton.names[first[0]], "Tail_1");
  EXPECT_EQ(two.skeleton.names[second[0]], "Chain2_Tail_1");
  EXPECT_EQ(two.skeleton.names[second[2]], "Chain2_Tail_3");
  EXPECT_EQ(two.skeleton.names[second[3]], "Chain2_Tail_End");
}

// Do no harm: the fox's tail skin on a non-body bone (a prop or an existing
// rig's own bone) is already rigged: no chain, every weight bit-identical.
TEST(Body, TailDrivenByNonBodyBoneIsLeftAlone) {
  rig::Character c;
  fixtures::GroundTruth truth;
  std::string error;
  ASSERT_TRUE(fixtures::make_fixture("fox", fixtures::default_params("fox"), c, &error, &truth)) << error;
  const fixtures::Appendage* tail = nullptr;
  for (const auto& a : truth.appendages) {
    if (a.expected_action == "chain") tail = &a;
  }
  ASSERT_NE(tail, nullptr);
  rig::Skeleton& sk = c.skeleton;
  const int hips = rig::hips_joint(sk);
  ASSERT_GE(hips, 0);
  const int prop = detect_test::append_joint(sk, "Prop", hips, sk.bind_world[hips]);
  for (int v : tail->vertices) c.skin.influences[v] = {{prop, 1.0}};
  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  detect_test::expect_left_alone(c, r, "already rigged");
}

// Issue 15: one vertex at x = 1e38 gives a region whose reach is 1e38; the
// split used to step 0.0025 H up to it (hours). Now bounded.
TEST(Body, HugeCoordinateDoesNotHang) {
  rig::Character c;
  std::string error;
  ASSERT_TRUE(fixtures::make_fixture("fox", fixtures::default_params("fox"), c, &error)) << error;
  c.mesh.positions[0].x() = 1e38;
  const auto t0 = std::chrono::steady_clock::now();
  FixResult r;
  const rig::Status s = fix(c, Mode::kReport, {}, r);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 60.0);
  if (s.ok()) {
    EXPECT_EQ(detect_test::check_weights(c, r), 0);
  }
}

}  // namespace
}  // namespace detect
