// Characters built facing another way than glTF's +Z (rig/facing.h): a
// quadruped modelled along X, a character turned to face -Z. Roles, the
// retargeted walk and its travel are those of the same character facing +Z,
// turned with it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rig/retarget/clip_transfer.h"
#include "rig/anatomy/facing.h"
#include "rig/io/io.h"
#include "rig/model/pose.h"
#include "rig/anatomy/roles.h"
#include "renamed_character.h"
#include "test_skeleton.h"
#include "turned_character.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

bool load_asset(const std::string& rel, Character& c) {
  const std::string path = std::string(TAILRIG_ASSETS) + "/" + rel;
  return fs::exists(path) && load(path, c).ok();
}

#define LOAD_ASSET(var, rel) \
  Character var;             \
  if (!load_asset(rel, var)) GTEST_SKIP() << "asset missing: " << rel << " (set TAILRIG_ASSETS)";

TEST(Facing, QuarterTurnsAreExactPermutations) {
  EXPECT_TRUE(facing_with_left(Vec3::UnitX()).canonical());
  EXPECT_TRUE(facing_with_left(Vec3(1, 0, 0.2)).canonical());  // 11 deg: snapped
  const Facing x = facing_with_left(Vec3(0, 0, -1));            // left -Z: faces +X
  EXPECT_EQ(x.forward(), Vec3::UnitX());
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const double v = x.to_canonical(r, c);
      EXPECT_TRUE(v == 0 || v == 1 || v == -1) << r << "," << c << ": " << v;
    }
  EXPECT_EQ(facing_with_left(Vec3(-1, 0, 0)).forward(), -Vec3::UnitZ());
  EXPECT_EQ(facing_with_left(Vec3(0, 0, 1)).forward(), -Vec3::UnitX());
  // Off every axis by more than the snap: the exact heading.
  const double a = 33.0 * 3.14159265358979323846 / 180.0;
  const Facing t = facing_with_left(Vec3(std::cos(a), 0, -std::sin(a)));
  EXPECT_NEAR((t.forward() - Vec3(std::sin(a), 0, std::cos(a))).norm(), 0.0, 1e-12);
  EXPECT_NEAR((t.to_canonical * t.forward() - Vec3::UnitZ()).norm(), 0.0, 1e-12);
  EXPECT_TRUE(facing_with_left(Vec3::UnitY()).canonical());  // no horizontal length
}

// A named biped caught mid-stride in its bind pose (left leg forward, right
// leg back): the thighs at the pelvis say where its sides are, so it faces
// +Z. Its knees and feet alone would point the facing 65 deg off.
TEST(Facing, StrideInTheBindPoseDoesNotTurnTheFacing) {
  const Skeleton sk = test::make_skeleton({
      {"Hips", -1, Vec3(0, 1.0, 0)},
      {"LeftUpLeg", 0, Vec3(0.1, 0.9, 0)},
      {"LeftLeg", 1, Vec3(0.1, 0.5, 0.25)},
      {"LeftFoot", 2, Vec3(0.1, 0.1, 0.4)},
      {"RightUpLeg", 0, Vec3(-0.1, 0.9, 0)},
      {"RightLeg", 4, Vec3(-0.1, 0.5, -0.25)},
      {"RightFoot", 5, Vec3(-0.1, 0.1, -0.4)},
      {"Spine", 0, Vec3(0, 1.3, 0)},
      {"Head", 7, Vec3(0, 1.7, 0)},
  });
  bool named = false;
  EXPECT_TRUE(facing_from_skeleton(sk, &named).canonical());
  EXPECT_TRUE(named);
  EXPECT_TRUE(facing_from_roles(sk).canonical());
  EXPECT_EQ(role_name(sk.roles[1]), "left thigh");
}

// Every shared character, with its names and with every joint renamed j<i>,
// turned 33, 90, 180 and 270 deg: the same role on every joint. Was (before
// rig/facing.h): the Wolf and the Fox turned 90 deg read their pelvis on the
// chest (Torso2) and lost their hind legs, the T-Rex read its arms as legs.
TEST(Facing, TurnedCharactersReadTheSameRoles) {
  for (const char* file : {"Wolf.glb", "Fox.glb", "Rat.glb", "Trex.glb", "CyberpunkCharacter.glb", "Bunny.glb",
                           "Witch.glb"}) {
    LOAD_ASSET(named, std::string("characters/") + file);
    const Character unnamed = test::renamed(named);
    for (const Character* c : {static_cast<const Character*>(&named), &unnamed})
      for (double deg : {33.0, 90.0, 180.0, 270.0}) {
        SCOPED_TRACE(std::string(file) + (c == &named ? " named" : " renamed") + " turned " + std::to_string(deg));
        const Character t = test::turned(*c, deg);
        int differ = 0;
        for (int j = 0; j < c->skeleton.size(); ++j) {
          const bool same = t.skeleton.roles[j] == c->skeleton.roles[j];
          differ += same ? 0 : 1;
          EXPECT_TRUE(same) << named.skeleton.names[j] << ": " << role_name(t.skeleton.roles[j]) << " vs "
                            << role_name(c->skeleton.roles[j]);
        }
        EXPECT_EQ(differ, 0);
        // The facing read from the roles is the turn (within the unturned
        // rig's own small tilt, snapped away there: the Fox's is 0.007 deg).
        const Vec3 fwd = facing_from_roles(t.skeleton).forward();
        const Vec3 want = test::turn_about_up(deg) * facing_from_roles(c->skeleton).forward();
        EXPECT_NEAR((fwd - want).norm(), 0.0, 1e-3);
      }
  }
}

// walk.bvh (facing +Z) onto a biped and onto the T-Rex, each turned: the
// retargeted walk is the unturned one turned with them, so it travels
// along the character's own forward (was: along +Z, sideways or backwards).
TEST(Facing, RetargetedWalkFollowsTheTargetsFacing) {
  LOAD_ASSET(walk, "clips/walk.bvh");
  for (const char* file : {"CyberpunkCharacter.glb", "Trex.glb"}) {
    LOAD_ASSET(target, std::string("characters/") + file);
    TransferOptions o;
    const TransferResult base =
        transfer_clip(walk, walk.clips.front(), calibrate(walk.skeleton), target, calibrate(target.skeleton), o);
    ASSERT_TRUE(base.status.ok()) << base.status.message;
    const int hips = hips_joint(target.skeleton);
    ASSERT_GE(hips, 0);
    double height = 0;
    for (const Mat4& m : target.skeleton.bind_world) height = std::max(height, m(1, 3));
    for (double deg : {90.0, 180.0, 33.0}) {
      SCOPED_TRACE(std::string(file) + " turned " + std::to_string(deg));
      const Character t = test::turned(target, deg);
      const TransferResult r =
          transfer_clip(walk, walk.clips.front(), calibrate(walk.skeleton), t, calibrate(t.skeleton), o);
      ASSERT_TRUE(r.status.ok()) << r.status.message;
      const Eigen::Matrix3d turn = test::turn_about_up(deg);
      double worst = 0;
      for (double time : {0.0, 0.3, 0.6, base.clip.duration}) {
        const std::vector<Mat4> a = pose_at(target.skeleton, base.clip, time), b = pose_at(t.skeleton, r.clip, time);
        for (int j = 0; j < target.skeleton.size(); ++j)
          worst = std::max(worst, (turn * a[j].block<3, 1>(0, 3) - b[j].block<3, 1>(0, 3)).norm());
      }
      std::printf("[facing] %s turned %.0f: largest joint offset from the turned walk %.3g (H %.3g)\n", file, deg,
                  worst, height);
      EXPECT_LT(worst, 1e-5 * height);
      const Vec3 travel = pose_at(t.skeleton, r.clip, r.clip.duration)[hips].block<3, 1>(0, 3) -
                          pose_at(t.skeleton, r.clip, 0.0)[hips].block<3, 1>(0, 3);
      const Vec3 forward = facing_from_roles(t.skeleton).forward();
      EXPECT_GT(travel.dot(forward), 0.9 * travel.norm()) << travel.transpose();
    }
  }
}


// Each name's sides swapped (Left <-> Right, .L <-> .R, _l <-> _r): a rig
// named from the viewer's side.
std::string swap_sides(const std::string& name) {
  static const std::pair<std::string_view, std::string_view> kSwaps[] = {
      {"Left", "Right"}, {"Right", "Left"}, {"left", "right"}, {"right", "left"}};
  std::string out;
  for (size_t i = 0; i < name.size();) {
    bool swapped = false;
    for (const auto& [from, to] : kSwaps)
      if (!swapped && name.compare(i, from.size(), from) == 0) {
        out += to;
        i += from.size();
        swapped = true;
      }
    if (swapped) continue;
    const bool suffix = i + 2 == name.size() && (name[i] == '.' || name[i] == '_');
    if (suffix && (name[i + 1] == 'L' || name[i + 1] == 'R')) {  // Blender's .L/.R, _L/_R
      out += name[i];
      out += name[i + 1] == 'L' ? 'R' : 'L';
      break;
    }
    out += name[i++];
  }
  return out;
}

Character viewer_named(const Character& in) {
  Character c = in;
  for (std::string& n : c.skeleton.names) n = swap_sides(n);
  if (c.has_skin()) assign_roles(c.skeleton, c.mesh, c.skin);
  else assign_roles(c.skeleton);
  return c;
}

// A rig that names its sides from the viewer's (its "Left" leg on its right)
// has all its toes behind their feet when read the names' way: the toes
// overrule the names, and it reads as the same character facing the same
// way, each joint on its own physical side (was: read facing away, so a
// retargeted walk went backwards). The mocap's toes point 0.90 (cosine)
// forward, the Khronos fox's only 0.32.
TEST(Facing, ToesOverruleSidesNamedFromTheViewer) {
  LOAD_ASSET(walk, "clips/walk.bvh");
  LOAD_ASSET(fox, "characters/Fox.glb");
  for (const Character* c : {&walk, &fox}) {
    const Character v = viewer_named(*c);
    SCOPED_TRACE(c == &walk ? "walk.bvh" : "Fox.glb");
    int swapped = 0;
    for (int j = 0; j < c->skeleton.size(); ++j) swapped += v.skeleton.names[j] != c->skeleton.names[j];
    EXPECT_GT(swapped, 8);
    EXPECT_EQ(v.skeleton.roles, c->skeleton.roles);
    EXPECT_NEAR((facing_from_roles(v.skeleton).forward() - facing_from_roles(c->skeleton).forward()).norm(), 0, 1e-12);
  }
  // As a retarget source: the same walk onto Cyberpunk, forward.
  LOAD_ASSET(target, "characters/CyberpunkCharacter.glb");
  const Character v = viewer_named(walk);
  TransferOptions o;
  const TransferResult a =
      transfer_clip(walk, walk.clips.front(), calibrate(walk.skeleton), target, calibrate(target.skeleton), o);
  const TransferResult b =
      transfer_clip(v, v.clips.front(), calibrate(v.skeleton), target, calibrate(target.skeleton), o);
  ASSERT_TRUE(a.status.ok() && b.status.ok()) << a.status.message << b.status.message;
  double worst = 0;
  for (double time : {0.0, 0.3, 0.6, a.clip.duration}) {
    const std::vector<Mat4> pa = pose_at(target.skeleton, a.clip, time), pb = pose_at(target.skeleton, b.clip, time);
    for (int j = 0; j < target.skeleton.size(); ++j)
      worst = std::max(worst, (pa[j].block<3, 1>(0, 3) - pb[j].block<3, 1>(0, 3)).norm());
  }
  EXPECT_LT(worst, 1e-9);
}

// The same, its arms (and what hangs from them) renamed j<i>: the legs' names
// still give the facing and their sides, the arms take theirs from where they
// are. Overruled names must swap only the sides read from names: swapping
// every side put each unnamed arm on the other side (left arm read as right).
Character arms_unnamed(const Character& in) {
  Character c = in;
  const Skeleton& sk = in.skeleton;
  std::vector<char> arm(sk.size(), 0);
  for (int j = 0; j < sk.size(); ++j) {
    const BodyPart p = sk.roles[j].part;
    const int parent = sk.parents[j];
    arm[j] = p == BodyPart::kShoulder || p == BodyPart::kUpperArm || p == BodyPart::kForearm ||
             p == BodyPart::kHand || (parent >= 0 && arm[parent]);
    if (arm[j]) c.skeleton.names[j] = "j" + std::to_string(j);
  }
  return c;
}

TEST(Facing, OverruledNamesKeepSidesReadFromPositions) {
  LOAD_ASSET(walk, "clips/walk.bvh");
  LOAD_ASSET(cmu, "clips/cmu_07_01_walk.fbx");
  for (const Character* c : {&walk, &cmu}) {
    SCOPED_TRACE(c == &walk ? "walk.bvh" : "cmu_07_01_walk.fbx");
    Character mixed = arms_unnamed(*c);
    int renamed = 0, arm_sides = 0;
    for (int j = 0; j < c->skeleton.size(); ++j) renamed += mixed.skeleton.names[j] != c->skeleton.names[j];
    if (mixed.has_skin()) assign_roles(mixed.skeleton, mixed.mesh, mixed.skin);
    else assign_roles(mixed.skeleton);
    for (const Role& r : mixed.skeleton.roles)
      arm_sides += r.part == BodyPart::kUpperArm && r.side != Side::kCenter ? 1 : 0;
    EXPECT_GE(renamed, 4);
    EXPECT_EQ(arm_sides, 2);  // the arms are still found, one per side
    // Upper arm, forearm and hand as named (walk.bvh's forearms also carry a
    // helper as low as the hand, one parked across the body).
    for (int j = 0; j < c->skeleton.size(); ++j) {
      const BodyPart p = c->skeleton.roles[j].part;
      if (p == BodyPart::kUpperArm || p == BodyPart::kForearm || p == BodyPart::kHand) {
        EXPECT_EQ(mixed.skeleton.roles[j], c->skeleton.roles[j]) << c->skeleton.names[j];
      }
    }
    const Character v = viewer_named(mixed);
    EXPECT_EQ(v.skeleton.roles, mixed.skeleton.roles);
    EXPECT_NEAR((facing_from_roles(v.skeleton).forward() - facing_from_roles(mixed.skeleton).forward()).norm(), 0,
                1e-12);
  }
}

// Toes are the only evidence strong enough: without toes (the Bunny, whose
// feet's skin reaches ahead of its ankles) the names still decide, and a
// viewer-named rig reads as facing away, its sides as named.
TEST(Facing, WithoutToesNamesDecide) {
  LOAD_ASSET(bunny, "characters/Bunny.glb");
  const Character v = viewer_named(bunny);
  EXPECT_NEAR((facing_from_roles(v.skeleton).forward() + facing_from_roles(bunny.skeleton).forward()).norm(), 0, 1e-9);
}
}  // namespace
}  // namespace rig
