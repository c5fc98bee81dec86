// Do no harm (the brief, issue 11): a file holding two characters (a rider
// and its horse, two exports in one scene) or whose skin does not sit on its
// skeleton is not analysed, and a rig with tail bones is rewritten nowhere:
// no chain, no rigid region, every weight bit-identical, and the report says
// why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

#include "check_util.h"
#include "detect/find_appendages.h"
#include "detect/appendage_report.h"
#include "detect/rewrite/strip_tail.h"
#include "fixtures/fixtures.h"
#include "rig/io/edit.h"
#include "rig/io/io.h"
#include "rig/anatomy/roles.h"
#include "test_util.h"

namespace detect {
namespace {

// `b` appended to `a` as a second character `dx` to its side: its own
// skeleton (names prefixed), its own primitives, its skin on its joints.
rig::Character side_by_side(rig::Character a, const rig::Character& b, double dx) {
  const int nj = a.skeleton.size(), nv = a.mesh.vertex_count();
  const int np = static_cast<int>(a.mesh.primitives.size());
  rig::Mat4 shift = rig::Mat4::Identity();
  shift(0, 3) = dx;
  rig::Skeleton& sk = a.skeleton;
  const rig::Skeleton& o = b.skeleton;
  for (int j = 0; j < o.size(); ++j) {
    sk.names.push_back("second:" + o.names[j]);
    sk.parents.push_back(o.parents[j] >= 0 ? o.parents[j] + nj : -1);
    sk.bind_world.push_back(shift * o.bind_world[j]);
    sk.inverse_bind.push_back(sk.bind_world.back().inverse());
    sk.root_parent_world.push_back(o.root_parent_world[j]);
    rig::Transform t = o.neutral_local[j];
    if (o.parents[j] < 0) t.translation.x() += dx;
    sk.neutral_local.push_back(t);
    sk.stored_local.push_back(t);
  }
  sk.roles.clear();  // assigned by find_appendages from the merged skeleton
  for (int v = 0; v < b.mesh.vertex_count(); ++v) {
    a.mesh.positions.push_back(b.mesh.positions[v] + rig::Vec3(dx, 0, 0));
    a.mesh.source_primitive.push_back(b.mesh.source_primitive[v] + np);
    a.mesh.source_index.push_back(b.mesh.source_index[v]);
    std::vector<rig::Influence> in = b.skin.influences[v];
    for (rig::Influence& i : in) i.joint += nj;
    a.skin.influences.push_back(in);
  }
  for (const auto& t : b.mesh.triangles) a.mesh.triangles.push_back({t[0] + nv, t[1] + nv, t[2] + nv});
  for (rig::Mesh::Primitive p : b.mesh.primitives) {
    p.first_vertex += nv;
    p.mesh += np;
    a.mesh.primitives.push_back(p);
  }
  a.clips.clear();
  return a;
}

// A fixture character without its clips (fix reads the skin alone).
rig::Character fixture_character(const char* name) {
  rig::Character c;
  std::string error;
  EXPECT_TRUE(fixtures::make_fixture(name, fixtures::default_params(name), c, &error)) << error;
  c.clips.clear();
  return c;
}

TEST(DoNoHarm, TwoFoxesInOneFileAreLeftAlone) {
  const rig::Character fox = fixture_character("fox");
  ASSERT_TRUE(fox.has_skin());
  FixResult one;
  ASSERT_TRUE(fix(fox, Mode::kChain, {}, one).ok());
  ASSERT_GT(one.chains, 0);  // alone, its tail gets a chain
  EXPECT_TRUE(one.analysis.refused.empty());

  const rig::Character two = side_by_side(fox, fox, 3.0 * one.analysis.height);
  FixResult r;
  ASSERT_TRUE(fix(two, Mode::kChain, {}, r).ok());
  EXPECT_TRUE(r.analysis.regions.empty());
  detect_test::expect_left_alone(two, r);
  EXPECT_NE(r.analysis.refused.find("2 characters on separate skeletons"), std::string::npos) << r.analysis.refused;
  EXPECT_EQ(appendage_report(r.character, r.analysis).value("refused", ""), r.analysis.refused);
}

// The brief: a rig with tail bones comes out weight-identical. A worn item
// the same fix makes rigid on a rig without them (the sheath fixture's
// scabbard) is left alone once the rig has a tail of its own bones.
TEST(DoNoHarm, ARigWithTailBonesIsRewrittenNowhere) {
  rig::Character c = fixture_character("sheath");
  ASSERT_TRUE(c.has_skin());
  FixResult plain;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, plain).ok());
  ASSERT_GT(plain.rigid, 0);  // the scabbard, without tail bones

  rig::Skeleton& sk = c.skeleton;
  const int hips = sk.find("mixamorig:Hips");
  ASSERT_GE(hips, 0);
  const rig::Vec3 h = sk.bind_world[hips].block<3, 1>(0, 3);
  int parent = hips;
  for (int k = 1; k <= 2; ++k)  // a two-joint tail running backwards from the hips
    parent = detect_test::append_joint(sk, "Tail" + std::to_string(k), parent,
                                       detect_test::translation(h + rig::Vec3(0.0, 0.0, -0.1 * k)));
  sk.roles.clear();
  // Each tail joint deforms: a trace of weight on one vertex.
  for (int k = 0; k < 2; ++k) {
    auto& in = c.skin.influences[static_cast<size_t>(k)];
    for (rig::Influence& i : in) i.weight *= 0.99;
    in.push_back({sk.size() - 2 + k, 0.01});
  }
  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  ASSERT_FALSE(r.analysis.body.tail_bones.empty());
  detect_test::expect_left_alone(c, r, "its weights are the artist's");
}

// An export that lost the mesh's scale (Blender's automatic weights under a
// scaled armature): the skin sits shrunk at the origin, far inside its
// skeleton. Every vertex reads far from the bones; fix grew chains on a
// tailless Witch so. Now nothing is rewritten and the report says why.
TEST(DoNoHarm, ASkinOffItsSkeletonIsLeftAlone) {
  rig::Character c = fixture_character("fox");
  ASSERT_TRUE(c.has_skin());
  for (rig::Vec3& p : c.mesh.positions) p /= 40.0;
  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  detect_test::expect_left_alone(c, r);
  EXPECT_NE(r.analysis.refused.find("the skin does not sit on its skeleton"), std::string::npos) << r.analysis.refused;
}

// A skeleton without legs (a fish whose fin is on its last spine bone, a
// snake): no pelvis a rigger fell back on, so nothing is confident. Before,
// a fish built in Blender had its fin, 100 % on its own spine bone, moved
// onto an 8-bone chain hung from a spine joint. Here the fox fixture loses
// its legs: their skin (and the tail's, which its rigger gave the legs)
// goes to the hips, the leg joints carry nothing.
TEST(DoNoHarm, ASkeletonWithoutLegsIsLeftAlone) {
  rig::Character c = fixture_character("fox");
  ASSERT_TRUE(c.has_skin());
  rig::assign_roles(c.skeleton, c.mesh, c.skin);
  const int hips = rig::hips_joint(c.skeleton);
  ASSERT_GE(hips, 0);
  int moved = 0;
  for (std::vector<rig::Influence>& in : c.skin.influences) {
    double on_hips = 0.0;
    std::vector<rig::Influence> kept;
    for (const rig::Influence& i : in) {
      const rig::BodyPart part = c.skeleton.roles[i.joint].part;
      const bool leg = part == rig::BodyPart::kThigh || part == rig::BodyPart::kShin ||
                       part == rig::BodyPart::kFoot || part == rig::BodyPart::kToe;
      if (leg || i.joint == hips) {
        on_hips += i.weight;
        moved += leg;
      } else {
        kept.push_back(i);
      }
    }
    if (on_hips > 0.0) kept.push_back({hips, on_hips});
    in = kept;
  }
  ASSERT_GT(moved, 0);
  std::vector<int> legs;
  for (int j = 0; j < c.skeleton.size(); ++j) {
    const rig::BodyPart part = c.skeleton.roles[j].part;
    if (part == rig::BodyPart::kThigh || part == rig::BodyPart::kShin || part == rig::BodyPart::kFoot ||
        part == rig::BodyPart::kToe)
      legs.push_back(j);
  }
  ASSERT_TRUE(rig::remove_joints(c, legs).ok());
  c.skeleton.roles.clear();  // read again from the legless skeleton
  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  detect_test::expect_left_alone(c, r);
  EXPECT_NE(r.analysis.refused.find("no legs"), std::string::npos) << r.analysis.refused;
}

// A sword skinned to the hand or the forearm itself (no Weapon bone): the
// Cyberpunk's, hanging from its right hand beside the thigh, read as a tail
// on the thigh and got a Tail_* chain. A rigger never gives a tail to an
// arm: left alone, and the report says it is held.
TEST(DoNoHarm, ASwordSkinnedToTheHandIsNoTail) {
  const std::string path = std::string(TAILRIG_ASSETS) + "/characters/CyberpunkCharacter.glb";
  rig::Character c;
  if (!std::filesystem::exists(path) || !rig::load(path, c).ok()) GTEST_SKIP() << "asset missing: " << path;
  const int weapon = c.skeleton.find("Weapon");
  ASSERT_GE(weapon, 0);
  const int hand = c.skeleton.parents[weapon];
  for (const int arm_bone : {hand, c.skeleton.parents[hand]}) {
    SCOPED_TRACE(c.skeleton.names[arm_bone]);
    rig::Character held = c;
    for (std::vector<rig::Influence>& in : held.skin.influences)
      for (rig::Influence& i : in)
        if (i.joint == weapon) i.joint = arm_bone;
    FixResult r;
    ASSERT_TRUE(fix(held, Mode::kChain, {}, r).ok());
    detect_test::expect_left_alone(held, r, "held, no tail");
  }
}

// Body limbs are never worn (issue 45): a rigid rewrite that takes skin of
// the body's own shell that an arm or leg bone drives would carry that limb
// with the trunk. Built here: a round tube from Spine2 out through the
// tailless fixture's back, hanging down and back past the right thigh, its
// upper third on Spine2 and the rest on the right thigh, joined to the
// body's skin near the spine by one triangle (one shell with the body). It
// reads as a worn item on the spine; before, it was made rigid there, the
// thigh-driven skin with it.
TEST(DoNoHarm, BodySkinALegDrivesIsNeverWorn) {
  rig::Character c = fixture_character("tailless");
  ASSERT_TRUE(c.has_skin());
  Analysis plain;
  ASSERT_TRUE(find_appendages(c, {}, plain).ok());
  const rig::Skeleton& sk = c.skeleton;
  const int spine2 = sk.find("mixamorig:Spine2"), thigh = sk.find("mixamorig:RightUpLeg");
  ASSERT_TRUE(spine2 >= 0 && thigh >= 0);
  const double H = plain.height;
  const rig::Vec3 start = sk.bind_world[spine2].block<3, 1>(0, 3);
  const rig::Vec3 dir = rig::Vec3(-0.25, -0.55, -0.8).normalized();  // down, back (the fixture faces +Z), right
  const int rings = 24, sides = 10;
  const double length = 0.35 * H, radius = 0.015 * H;
  const int first = c.mesh.vertex_count();
  const rig::Vec3 u = dir.cross(rig::Vec3::UnitX()).normalized(), w = dir.cross(u);
  for (int i = 0; i < rings; ++i) {
    const double t = static_cast<double>(i) / (rings - 1);
    for (int k = 0; k < sides; ++k) {
      const double a = 2 * std::numbers::pi * k / sides;
      c.mesh.positions.push_back(start + t * length * dir + radius * (std::cos(a) * u + std::sin(a) * w));
      c.skin.influences.push_back({{t < 1.0 / 3 ? spine2 : thigh, 1.0}});
      c.mesh.source_primitive.push_back(0);
      c.mesh.source_index.push_back(c.mesh.vertex_count() - 1);
    }
  }
  c.mesh.primitives.back().vertex_count = c.mesh.vertex_count();
  for (int i = 0; i + 1 < rings; ++i)
    for (int k = 0; k < sides; ++k) {
      const int a0 = first + i * sides + k, a1 = first + i * sides + (k + 1) % sides;
      c.mesh.triangles.push_back({a0, a0 + sides, a1});
      c.mesh.triangles.push_back({a1, a0 + sides, a1 + sides});
    }
  // The bridge: the body triangle with a vertex near the bones nearest the tube's top.
  int bridge = -1;
  double best = 1e30;
  for (size_t t = 0; t < c.mesh.triangles.size() && static_cast<int>(c.mesh.triangles[t][0]) < first; ++t) {
    const int v = c.mesh.triangles[t][0];
    if (plain.far[plain.welded.weld_of[v]]) continue;
    const double d = (c.mesh.positions[v] - start).squaredNorm();
    if (d < best) best = d, bridge = static_cast<int>(t);
  }
  ASSERT_GE(bridge, 0);
  const auto tri = c.mesh.triangles[bridge];
  c.mesh.triangles.push_back({first, tri[0], tri[1]});

  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  const std::string info = detect_test::describe(c, r.analysis);
  int worn = 0;
  for (const Region& reg : r.analysis.regions) {
    if (reg.classification.cls != AppendageClass::kWorn) continue;
    ++worn;
    EXPECT_TRUE(reg.on_body) << info;
    EXPECT_EQ(reg.classification.action, Action::kUnchanged) << info;
    EXPECT_NE(reg.reason.find("a body limb, never worn"), std::string::npos) << reg.reason;
  }
  EXPECT_EQ(worn, 1) << info;
  detect_test::expect_left_alone(c, r, "mixamorig:RightUpLeg");
}

// The case: the Apatosaurus, stripped of its tail bones, has far
// skin under its thick trunk and legs (its IK feet hang from the root, so
// the lower legs lie far from every bone) that reads long and hangs from
// Shoulders: 966 vertices of the hind feet, shins, thighs, neck and trunk
// were made rigid on Shoulders as a worn item (feet moved up to 35 % of H;
// body p99 1.53 -> 2.88, torn 1.6 -> 5.0 % under its own Walk). Now no
// region is rigid, the tail still gets its chain, and every vertex outside
// the chain's region keeps its weights.
TEST(DoNoHarm, AQuadrupedsLegsAndTrunkAreNeverWorn) {
  const std::string path = std::string(TAILRIG_ASSETS) + "/characters/Apatosaurus.glb";
  rig::Character in;
  if (!std::filesystem::exists(path) || !rig::load(path, in).ok()) GTEST_SKIP() << "asset missing: " << path;
  rig::Character c;
  ASSERT_TRUE(strip_tail(in, {}, c).ok());
  FixResult r;
  ASSERT_TRUE(fix(c, Mode::kChain, {}, r).ok());
  const std::string info = detect_test::describe(c, r.analysis);
  EXPECT_EQ(r.rigid, 0) << info;
  EXPECT_EQ(r.chains, 1) << info;
  bool said = false;
  for (const Region& reg : r.analysis.regions) {
    EXPECT_NE(reg.classification.action, Action::kRigid) << info;
    said |= reg.reason.find("a body limb, never worn") != std::string::npos;
  }
  EXPECT_TRUE(said) << info;
  detect_test::check_weights(c, r);
}

}  // namespace
}  // namespace detect
