// Goldens (issue 15): a malformed golden is a data error naming its file
// (never a JSON exception), and --update-golden reports no phantom changes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "golden.h"

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
