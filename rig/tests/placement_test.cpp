// Viewer placement (SPEC §5): tiny exact cases. Coordinates are dyadic so
// every expected value is exact.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rig/anatomy/roles.h"
#include "rig/retarget/contact/grounding.h"
#include "rig/retarget/contact/placement.h"
#include "rig/model/pose.h"

namespace rig {
namespace {

// Hips at y = 1, a spine above, one tail bone behind the hips. One vertex per
// entry of `verts`: position and (joint, weight) influences.
struct V {
  Vec3 p;
  std::vector<Influence> w;
};

Character make_character(const std::vector<V>& verts, const char* tail_name = "Tail_1") {
  Character c;
  Skeleton& sk = c.skeleton;
  const std::vector<std::pair<std::string, Vec3>> joints = {
      {"Hips", Vec3(0, 1, 0)}, {"Spine", Vec3(0, 1.5, 0)}, {tail_name, Vec3(0, 1, -0.25)}};
  const std::vector<int> parents = {-1, 0, 0};
  for (size_t i = 0; i < joints.size(); ++i) {
    sk.names.push_back(joints[i].first);
    sk.parents.push_back(parents[i]);
    Transform t;
    t.translation = joints[i].second;
    sk.bind_world.push_back(t.matrix());
    sk.inverse_bind.push_back(t.matrix().inverse());
    sk.root_parent_world.push_back(Mat4::Identity());
    Transform l;
    l.translation = parents[i] < 0 ? joints[i].second : joints[i].second - joints[parents[i]].second;
    sk.neutral_local.push_back(l);
  }
  sk.stored_local = sk.neutral_local;
  assign_roles(sk);
  for (const V& v : verts) {
    c.mesh.positions.push_back(v.p);
    c.skin.influences.push_back(v.w);
  }
  return c;
}

constexpr int kHips = 0, kSpine = 1, kTail = 2;

// Body from y = 0.25 (soles) to 2; a tail hanging down to y = -0.5.
std::vector<V> body_and_hanging_tail() {
  return {
      {Vec3(0.25, 0.25, 0), {{kHips, 1.0}}},     // sole
      {Vec3(-0.25, 0.25, 0.5), {{kHips, 1.0}}},  // sole
      {Vec3(0, 2, 0), {{kSpine, 1.0}}},          // head top
      {Vec3(0, 1, -0.5), {{kTail, 1.0}}},        // tail root
      {Vec3(0, -0.5, -1.5), {{kTail, 1.0}}},     // tail tip, below the soles
  };
}

TEST(Placement, TailBelowSolesDoesNotLift) {
  const Character c = make_character(body_and_hanging_tail());
  const Placement p = place_on_floor(c);
  EXPECT_FALSE(p.empty);
  EXPECT_EQ(p.body_bottom, 0.25);
  EXPECT_EQ(p.mesh_bottom, -0.5);
  // Soles on the floor: move down by 0.25 (a whole-mesh viewer would move the
  // character up by 0.5 and leave the soles 0.75 in the air).
  EXPECT_EQ(p.vertical_offset, -0.25);
  EXPECT_EQ(p.body_vertices, 3);
  EXPECT_EQ(p.tail_vertices, 2);
}

TEST(Placement, FramingIncludesTail) {
  const Character c = make_character(body_and_hanging_tail());
  const Placement p = place_on_floor(c);
  EXPECT_EQ(p.frame_min, Vec3(-0.25, -0.75, -1.5));  // tail tip, after the offset
  EXPECT_EQ(p.frame_max, Vec3(0.25, 1.75, 0.5));
}

TEST(Placement, FloorHeightIsRespected) {
  const Character c = make_character(body_and_hanging_tail());
  PlacementOptions o;
  o.floor_height = 1.0;
  const Placement p = place_on_floor(c, o);
  EXPECT_EQ(p.vertical_offset, 0.75);
  EXPECT_EQ(p.body_bottom + p.vertical_offset, 1.0);
}

TEST(Placement, TailShareDecidesMostlyTail) {
  // Two low vertices, both partly on the tail: 0.75 tail share is tail skin,
  // 0.25 is body skin and sets the bottom.
  std::vector<V> verts = {
      {Vec3(0, 2, 0), {{kSpine, 1.0}}},
      {Vec3(0, -1, 0), {{kHips, 0.25}, {kTail, 0.75}}},
      {Vec3(0, -0.5, 0), {{kHips, 0.75}, {kTail, 0.25}}},
  };
  const Character c = make_character(verts);
  const std::vector<bool> mask = tail_skin_mask(c);
  EXPECT_EQ(mask, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(place_on_floor(c).vertical_offset, 0.5);
  // Exactly half is not "mostly".
  verts[1].w = {{kHips, 0.5}, {kTail, 0.5}};
  EXPECT_EQ(place_on_floor(make_character(verts)).vertical_offset, 1.0);
}

TEST(Placement, ExplicitTailJoints) {
  // A name that says nothing: auto detection keeps the tail as body, the
  // caller's explicit set ignores it.
  const Character c = make_character(body_and_hanging_tail(), "bone_7");
  EXPECT_EQ(place_on_floor(c).vertical_offset, 0.5);
  PlacementOptions o;
  o.tail_joints = {kTail};
  EXPECT_EQ(place_on_floor(c, o).vertical_offset, -0.25);
}

TEST(Placement, PosedPositions) {
  // The same rule on posed positions: the hips drop by 0.5 with the tail
  // rigidly attached; the tail (now 1 below the floor) still lifts nothing.
  const Character c = make_character(body_and_hanging_tail());
  std::vector<Transform> locals = c.skeleton.neutral_local;
  locals[kHips].translation.y() -= 0.5;
  const std::vector<Mat4> world = local_to_world(c.skeleton, locals);
  const std::vector<Vec3> posed = skin_positions(c.mesh, c.skin, c.skeleton, world);
  const Placement p = place_on_floor(c, posed);
  EXPECT_EQ(p.body_bottom, -0.25);
  EXPECT_EQ(p.vertical_offset, 0.25);
  EXPECT_EQ(p.frame_min.y(), -0.75);
}

TEST(Placement, AllTailFallsBackToWholeMesh) {
  const Character c = make_character({{Vec3(0, -0.5, 0), {{kTail, 1.0}}}, {Vec3(0, 1, 0), {{kTail, 1.0}}}});
  const Placement p = place_on_floor(c);
  EXPECT_EQ(p.body_vertices, 0);
  EXPECT_EQ(p.vertical_offset, 0.5);
}

TEST(Placement, UnweightedVerticesAreBody) {
  const Character c = make_character({{Vec3(0, -0.5, 0), {}}, {Vec3(0, -1, 0), {{kTail, 1.0}}}});
  EXPECT_EQ(place_on_floor(c).vertical_offset, 0.5);
}

TEST(Placement, EmptyMesh) {
  const Character c = make_character({});
  const Placement p = place_on_floor(c);
  EXPECT_TRUE(p.empty);
  EXPECT_EQ(p.vertical_offset, 0.0);
}

TEST(Placement, DominantJointTiesGoToTheLowerIndex) {
  // The rule grounding groups support points by (and T is built from).
  EXPECT_EQ(dominant_joint(std::vector<Influence>{}), -1);
  EXPECT_EQ(dominant_joint(std::vector<Influence>{{kTail, 0.5}, {kHips, 0.5}}), kHips);
  EXPECT_EQ(dominant_joint(std::vector<Influence>{{kHips, 0.25}, {kTail, 0.75}}), kTail);
}

}  // namespace
}  // namespace rig
