// FixtureCache (issue 47): a fixture from the cache is the fixture a build
// gives, bit for bit, for every request, also concurrent ones; a bad name
// fails as make_fixture does. An input file read through it is rig::load's
// character, read once for every request; a missing file fails as rig::load.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include "harness/gate/fixture_cache.h"
#include "rig/io/io.h"

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

TEST(FixtureCache, AFileIsReadOnceForEveryRequest) {
  rig::Character mouse;
  ASSERT_TRUE(fixtures::make_fixture("mouse", fixtures::default_params("mouse"), mouse, nullptr));
  const std::string path =
      (std::filesystem::temp_directory_path() / ("tailrig_file_cache_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".glb")).string();
  ASSERT_TRUE(rig::save_glb(mouse, path).ok());
  rig::Character direct;
  ASSERT_TRUE(rig::load(path, direct).ok());
  FixtureCache cache;
  std::vector<rig::Character> got(4);
  std::vector<char> ok(got.size(), 0);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] { ok[i] = load_cached(&cache, path, got[i]).ok(); });
  for (auto& t : threads) t.join();
  std::filesystem::remove(path);
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(ok[i]) << "request " << i;
    EXPECT_TRUE(same_bits(direct, got[i])) << "request " << i;
    // One read: every copy holds the same parsed document.
    ASSERT_TRUE(got[i].gltf);
    EXPECT_EQ(got[i].gltf.get(), got[0].gltf.get()) << "request " << i;
  }
  EXPECT_NE(direct.gltf.get(), got[0].gltf.get());
}

TEST(FixtureCache, AMissingFileFailsAsLoadDoes) {
  FixtureCache cache;
  rig::Character c;
  const std::string path = "/nonexistent/tailrig/no_such_file.glb";
  const rig::Status direct = rig::load(path, c);
  ASSERT_FALSE(direct.ok());
  for (int i = 0; i < 2; ++i) {
    const rig::Status cached = load_cached(&cache, path, c);
    EXPECT_EQ(cached.code, direct.code);
    EXPECT_EQ(cached.message, direct.message);
  }
}

}  // namespace
}  // namespace harness
