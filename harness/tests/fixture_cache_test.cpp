// FixtureCache (issue 47): a fixture from the cache is the fixture a build
// gives, bit for bit, for every request, also concurrent ones; a bad name
// fails as make_fixture does.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "harness/gate/fixture_cache.h"

namespace harness {
namespace {

bool same_bits(const rig::Character& a, const rig::Character& b) {
  const auto& pa = a.mesh.positions;
  const auto& pb = b.mesh.positions;
  if (pa.size() != pb.size() || a.mesh.triangles != b.mesh.triangles) return false;
  if (std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(pa[0])) != 0) return false;
  if (a.skin.influences.size() != b.skin.influences.size() || a.skeleton.names != b.skeleton.names) return false;
  for (size_t v = 0; v < a.skin.influences.size(); ++v) {
    const auto& ia = a.skin.influences[v];
    const auto& ib = b.skin.influences[v];
    if (ia.size() != ib.size()) return false;
    for (size_t k = 0; k < ia.size(); ++k)
      if (ia[k].joint != ib[k].joint || std::memcmp(&ia[k].weight, &ib[k].weight, sizeof(double)) != 0) return false;
  }
  return a.clips.size() == b.clips.size();
}

TEST(FixtureCache, EveryRequestGetsTheBuiltFixture) {
  const fixtures::FixtureParams p = fixtures::default_params("mouse");
  rig::Character built;
  fixtures::GroundTruth truth;
  ASSERT_TRUE(fixtures::make_fixture("mouse", p, built, nullptr, &truth));
  FixtureCache cache;
  std::vector<rig::Character> got(4);
  std::vector<fixtures::GroundTruth> truths(got.size());
  std::vector<char> ok(got.size(), 0);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] {
      std::string error;
      ok[i] = make_fixture_cached(&cache, "mouse", "{}", p, got[i], &error, &truths[i]);
    });
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(ok[i]) << "request " << i;
    EXPECT_TRUE(same_bits(built, got[i])) << "request " << i;
    EXPECT_EQ(truth.appendage_of_vertex, truths[i].appendage_of_vertex) << "request " << i;
  }
  // Another key (other parameters) is another fixture.
  fixtures::FixtureParams longer = p;
  longer.tail_length *= 1.5;
  rig::Character other;
  ASSERT_TRUE(make_fixture_cached(&cache, "mouse", "{\"tail_length\": 1.5}", longer, other, nullptr));
  EXPECT_FALSE(same_bits(built, other));
}

TEST(FixtureCache, AnUnknownFixtureFailsWithItsMessage) {
  FixtureCache cache;
  rig::Character c;
  std::string direct, cached;
  EXPECT_FALSE(fixtures::make_fixture("no_such_fixture", fixtures::FixtureParams{}, c, &direct));
  for (int i = 0; i < 2; ++i) {
    EXPECT_FALSE(make_fixture_cached(&cache, "no_such_fixture", "{}", fixtures::FixtureParams{}, c, &cached));
    EXPECT_EQ(cached, direct);
  }
}

}  // namespace
}  // namespace harness
