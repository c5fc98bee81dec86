// Characters built facing another way than glTF's +Z (rig/facing.h): strip-
// tail then fix on a tailed rig turned about Y grows the same chain on the
// same vertices, with the same weights (to rounding), as on the rig facing +Z; fix on a
// turned original changes nothing. Was: the Wolf and the Fox turned 90 deg
// grew no chain (their pelvis read on the chest).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "../../rig/tests/turned_character.h"
#include "check_util.h"
#include "detect/find_appendages.h"
#include "detect/rewrite/strip_tail.h"
#include "rig/io/io.h"

namespace detect {
namespace {

bool load_asset(const std::string& name, rig::Character& c) {
  const std::string path = std::string(TAILRIG_ASSETS) + "/characters/" + name;
  return std::filesystem::exists(path) && rig::load(path, c).ok();
}

// The largest weight difference of any vertex and joint between two fixes
// of the same mesh (turned positions differ by rounding, so do weights).
double largest_weight_change(const FixResult& a, const FixResult& b) {
  double worst = 0;
  const int nj = a.character.skeleton.size();
  std::vector<double> w(static_cast<size_t>(nj));
  for (size_t v = 0; v < a.character.skin.influences.size(); ++v) {
    std::fill(w.begin(), w.end(), 0.0);
    for (const rig::Influence& i : a.character.skin.influences[v]) w[i.joint] += i.weight;
    for (const rig::Influence& i : b.character.skin.influences[v]) w[i.joint] -= i.weight;
    for (double d : w) worst = std::max(worst, std::abs(d));
  }
  return worst;
}

TEST(FacingFix, TurnedTailedRigsGrowTheSameChain) {
  for (const char* file : {"Wolf.glb", "Fox.glb", "Rat.glb", "Trex.glb"}) {
    rig::Character in;
    if (!load_asset(file, in)) GTEST_SKIP() << "asset missing: " << file << " (set TAILRIG_ASSETS)";
    rig::Character stripped;
    ASSERT_TRUE(strip_tail(in, {}, stripped, nullptr).ok()) << file;
    FixResult base;
    ASSERT_TRUE(fix(stripped, Mode::kChain, {}, base).ok()) << file;
    ASSERT_EQ(base.chains, 1) << file;
    for (double deg : {90.0, 180.0, 270.0, 33.0}) {
      SCOPED_TRACE(std::string(file) + " turned " + std::to_string(deg));
      const rig::Character t = rig::test::turned(stripped, deg);
      FixResult r;
      ASSERT_TRUE(fix(t, Mode::kChain, {}, r).ok());
      EXPECT_EQ(r.chains, 1);
      EXPECT_EQ(r.rigid, base.rigid);
      ASSERT_EQ(r.character.skeleton.size(), base.character.skeleton.size());
      EXPECT_EQ(r.analysis.body.pelvis, base.analysis.body.pelvis);
      EXPECT_LT(largest_weight_change(r, base), 1e-6);
      detect_test::check_weights(t, r);
    }
  }
}

TEST(FacingFix, TurnedOriginalsAreLeftAlone) {
  for (const char* file : {"Wolf.glb", "CyberpunkCharacter.glb"}) {
    rig::Character in;
    if (!load_asset(file, in)) GTEST_SKIP() << "asset missing: " << file << " (set TAILRIG_ASSETS)";
    for (double deg : {90.0, 180.0}) {
      SCOPED_TRACE(std::string(file) + " turned " + std::to_string(deg));
      const rig::Character t = rig::test::turned(in, deg);
      FixResult r;
      ASSERT_TRUE(fix(t, Mode::kChain, {}, r).ok());
      EXPECT_EQ(r.chains, 0);
      EXPECT_EQ(r.rigid, 0);
      int changed = 0;
      for (size_t v = 0; v < t.skin.influences.size(); ++v)
        changed += detect_test::same_influences(t.skin.influences[v], r.character.skin.influences[v]) ? 0 : 1;
      EXPECT_EQ(changed, 0);
    }
  }
}

}  // namespace
}  // namespace detect
