// Goldens (issue 15): a malformed golden is a data error naming its file
// (never a JSON exception), and --update-golden reports no phantom changes.
// Tolerance semantics (issue 13): every metric of every checked-in golden
// fails when moved by 2x its tolerance and passes when moved by 0.5x.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "harness/gate/golden.h"

namespace harness {
namespace {

namespace fs = std::filesystem;
using rig::Status;

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("tailrig_golden_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// 0.1234565 prints "0.123457" as a double but "0.123456" once read back as a
// float: the old diff printed "~ x: 0.123456 -> 0.123457" on every update.
// The rule written out independently of golden.cpp: max(abs, rel |g|), a
// missing tolerance meaning rel 1 %.
double rule(const nlohmann::json& entry) {
  const nlohmann::json t = entry.value("tolerance", nlohmann::json{{"rel", 0.01}});
  return std::max(t.value("abs", 0.0), t.value("rel", 0.0) * std::abs(entry["value"].get<double>()));
}

bool passes(const std::string& name, const nlohmann::json& entry, double actual) {
  ScenarioResult r;
  r.metrics[name] = actual;
  EXPECT_TRUE(compare_with_golden_json({{"metrics", {{name, entry}}}}, "test", r).ok());
  return r.failures.empty();
}

TEST(GoldenTolerance, EveryCheckedInMetricFailsAt2xAndPassesAtHalf) {
  long checked = 0;
  for (const auto& f : fs::directory_iterator(fs::path(TAILRIG_SOURCE_DIR) / "golden")) {
    std::ifstream in(f.path());
    const nlohmann::json g = nlohmann::json::parse(in);
    for (const auto& [name, entry] : g.at("metrics").items()) {
      const double v = entry["value"].get<double>(), a = rule(entry);
      EXPECT_DOUBLE_EQ(allowed_deviation(entry.value("tolerance", nlohmann::json{{"rel", 0.01}}), v), a) << name;
      if (a == 0) {
        EXPECT_TRUE(passes(name, entry, v)) << f.path() << " " << name;
        EXPECT_FALSE(passes(name, entry, v + std::max(1e-12, 1e-9 * std::abs(v)))) << f.path() << " " << name;
        continue;
      }
      for (double sign : {1.0, -1.0}) {
        EXPECT_FALSE(passes(name, entry, v + sign * 2 * a)) << f.path() << " " << name << " moved by 2x";
        EXPECT_TRUE(passes(name, entry, v + sign * 0.5 * a)) << f.path() << " " << name << " moved by 0.5x";
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(GoldenTolerance, MaxOfAbsAndRelNotSumNorMin) {
  const nlohmann::json both = {{"value", 10.0}, {"tolerance", {{"abs", 0.1}, {"rel", 0.1}}}};
  EXPECT_TRUE(passes("m", both, 10.95));   // max: 1.0
  EXPECT_FALSE(passes("m", both, 11.05));  // a sum would allow 1.1
  const nlohmann::json none = {{"value", 100.0}};
  EXPECT_TRUE(passes("m", none, 100.9));  // default rel 1 %
  EXPECT_FALSE(passes("m", none, 101.1));
  EXPECT_FALSE(passes("m", {{"value", 1.0}, {"tolerance", {{"abs", 1e9}}}}, std::nan("")));
}

TEST(Golden, UpdateTwiceReportsNoChange) {
  const fs::path d = temp_dir("update");
  Scenario s;
  s.name = "x";
  ScenarioResult r;
  r.metrics = {{"x", 0.1234565}, {"y", 1234567.5}, {"z", 3.0}};
  std::vector<std::string> diff;
  ASSERT_TRUE(write_golden((d / "x.json").string(), s, r, diff).ok());
  EXPECT_EQ(diff.size(), 3u);
  diff.clear();
  ASSERT_TRUE(write_golden((d / "x.json").string(), s, r, diff).ok());
  EXPECT_TRUE(diff.empty()) << diff.front();
  ScenarioResult again = r;
  ASSERT_TRUE(compare_with_golden((d / "x.json").string(), again).ok());
  EXPECT_TRUE(again.failures.empty());
}

TEST(Golden, MalformedGoldenIsADataErrorNamingTheFile) {
  const fs::path d = temp_dir("malformed");
  for (const char* text : {R"({"metrics": {"x": [1, 2]}})", R"({"metrics": {"x": {"value": "1"}}})",
                           R"({"metrics": {"x": {"value": 1, "tolerance": 0.1}}})", R"({"metrics": [1]})", "[]",
                           R"({"metrics": {"x": {"value": 1, "tolerance": {"rel": "a"}}}})"}) {
    const fs::path f = d / "g.json";
    std::ofstream(f) << text;
    ScenarioResult r;
    r.metrics = {{"x", 1.0}};
    Status st;
    ASSERT_NO_THROW(st = compare_with_golden(f.string(), r)) << text;
    EXPECT_EQ(st.code, Status::Code::kBadData) << text;
    EXPECT_EQ(st.message.rfind(f.string(), 0), 0u) << st.message;
  }
}

TEST(Golden, WriteFailureIsAnError) {
  Scenario s;
  ScenarioResult r;
  r.metrics = {{"x", 1.0}};
  std::vector<std::string> diff;
  if (fs::exists("/dev/full")) {
    EXPECT_FALSE(write_golden("/dev/full", s, r, diff).ok());
  }
  EXPECT_FALSE(write_golden(temp_dir("dir").string(), s, r, diff).ok());
}

}  // namespace
}  // namespace harness
