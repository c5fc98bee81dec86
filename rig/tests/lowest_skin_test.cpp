// The lowest skinned vertex found group by group is the one a scan of every
// vertex finds, bit for bit (lowest_skin.h).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <random>

#include "rig/model/lowest_skin.h"
#include "rig/model/pose.h"
#include "test_skeleton.h"

namespace rig {
namespace {

// A biped with random skin: several influences per vertex, weights summing
// to 1 or (built in memory) not, some vertices sharing a height.
// `homes` > 0: every vertex's home among the first `homes` joints (large
// groups, split into parts by the index).
Character random_character(std::mt19937& rng, bool normalised, int vertices = 2000, int homes = 0) {
  Character c;
  c.skeleton = test::mixamo_biped();
  const int nj = c.skeleton.size();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::uniform_int_distribution<int> joint(0, nj - 1), home_joint(0, homes > 0 ? std::min(homes, nj) - 1 : nj - 1);
  for (int v = 0; v < vertices; ++v) {
    const int home = home_joint(rng);
    const Vec3 at = c.skeleton.bind_world[home].block<3, 1>(0, 3) + 0.1 * Vec3(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
    c.mesh.positions.push_back(v % 97 == 0 && v > 0 ? c.mesh.positions[v - 1] : at);  // ties
    // As riggers weight: the home joint, its parent, and now and then a
    // joint anywhere (a stray weight).
    const int parent = std::max(0, c.skeleton.parents[home]);
    std::vector<Influence> in{{home, 0.5 + u(rng)}, {parent, u(rng)}, {v % 50 == 0 ? joint(rng) : home, 0.2 * u(rng)}};
    double sum = 0;
    for (const Influence& i : in) sum += i.weight;
    for (Influence& i : in) i.weight /= normalised ? sum : 1.02 * sum;
    c.skin.influences.push_back(v % 97 == 0 && v > 0 ? c.skin.influences[v - 1] : in);
  }
  return c;
}

// Every pose's lowest kept item, by the index and by a scan of every vertex.
void expect_same_as_a_scan(int vertices_count, int homes) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-1.0, 1.0);
  for (const bool normalised : {true, false}) {
    const Character c = random_character(rng, normalised, vertices_count, homes);
    std::vector<int> vertices;
    for (int v = c.mesh.vertex_count() - 1; v >= 0; v -= 2) vertices.push_back(v);  // any order
    const LowestSkinIndex index = index_lowest_skin(c, vertices);
    std::vector<std::pair<double, int>> order;
    std::vector<Eigen::RowVector4d> height;
    int searched_less = 0;
    for (int pose = 0; pose < 200; ++pose) {
      std::vector<Transform> locals = c.skeleton.neutral_local;
      for (Transform& t : locals)
        t.rotation = (t.rotation * Quat(Eigen::AngleAxisd(angle(rng), Vec3(angle(rng), angle(rng), angle(rng)).normalized())))
                         .normalized();
      const std::vector<Mat4> world = local_to_world(c.skeleton, locals);
      skinning_heights(c.skeleton, world, height);
      const auto keep = [&](int i) { return i % 5 != 0; };
      int looked = 0;
      const LowestItem got = lowest_skinned(
          index, height, keep, [&](int v) { return ++looked, skinned_height(c, v, height); }, order);
      LowestItem want;
      for (int i = 0; i < static_cast<int>(vertices.size()); ++i) {
        if (!keep(i)) continue;
        const double y = skinned_height(c, vertices[static_cast<size_t>(i)], height);
        if (y < want.y) want.y = y, want.item = i;
      }
      ASSERT_EQ(got.item, want.item) << "pose " << pose;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(got.y), std::bit_cast<std::uint64_t>(want.y)) << "pose " << pose;
      searched_less += looked < static_cast<int>(vertices.size()) * 4 / 5;
    }
    // The bound must also prune: otherwise this is only a slower scan.
    EXPECT_GT(searched_less, 100) << "poses in which fewer vertices were skinned than a scan skins";
  }
}

TEST(LowestSkin, SameAsAScanOfEveryVertex) { expect_same_as_a_scan(2000, 0); }

// Hundreds of vertices per dominant joint: each group is split into parts
// (index_lowest_skin), still the scan's answer bit for bit.
TEST(LowestSkin, SameAsAScanWithGroupsSplitIntoParts) {
  expect_same_as_a_scan(6000, 4);
  Character c;
  std::mt19937 rng(3);
  c = random_character(rng, true, 3000, 2);
  std::vector<int> all(static_cast<size_t>(c.mesh.vertex_count()));
  for (int v = 0; v < c.mesh.vertex_count(); ++v) all[static_cast<size_t>(v)] = v;
  const LowestSkinIndex index = index_lowest_skin(c, all);
  EXPECT_GT(index.groups.size(), 20u) << "large groups are split";
  size_t items = 0;
  for (const LowestSkinIndex::Group& g : index.groups) items += g.items.size();
  EXPECT_EQ(items, all.size()) << "every vertex in exactly one part";
}

// skinning_heights' rows are the y rows of the whole skinning products, bit
// for bit (grounding and the floor tests compare heights summed from them
// with heights of the full matrices).
TEST(LowestSkin, SkinningHeightsAreTheProductsRows) {
  std::mt19937 rng(11);
  std::normal_distribution<double> n(0.0, 3.0);
  Skeleton sk = test::mixamo_biped();
  std::vector<Mat4> world(static_cast<size_t>(sk.size()));
  for (int rep = 0; rep < 50; ++rep) {
    for (size_t j = 0; j < world.size(); ++j)
      for (int k = 0; k < 16; ++k) world[j](k) = n(rng), sk.inverse_bind[j](k) = n(rng);
    std::vector<Eigen::RowVector4d> height;
    skinning_heights(sk, world, height);
    ASSERT_EQ(height.size(), world.size());
    for (size_t j = 0; j < world.size(); ++j) {
      const Eigen::RowVector4d want = (world[j] * sk.inverse_bind[j]).row(1);
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(height[j][c]), std::bit_cast<std::uint64_t>(want[c])) << j << "," << c;
    }
  }
}

}  // namespace
}  // namespace rig
