// Corpus manifest reading and the characters folder listing.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "harness/gate/corpus/run_corpus.h"

namespace harness::corpus {

namespace fs = std::filesystem;
using rig::Status;

void add_check(FileResult& r, const std::string& id, double actual, const std::string& op, double expected,
               const std::string& detail) {
  Check c{id, actual, op, expected, 0.0, detail, false};
  if (std::isfinite(actual)) {
    if (op == "==") c.pass = actual == expected;
    else if (op == "<=") c.pass = actual <= expected;
    else if (op == ">=") c.pass = actual >= expected;
    else if (op == "<") c.pass = actual < expected;
    else if (op == ">") c.pass = actual > expected;
  }
  r.checks.push_back(c);
}

void add_range_check(FileResult& r, const std::string& id, double actual, double lo, double hi,
                     const std::string& detail) {
  Check c{id, actual, "in", lo, hi, detail, std::isfinite(actual) && actual >= lo && actual <= hi};
  r.checks.push_back(c);
}

namespace {

// A metric-safe id: letters, digits and '_' only.
std::string safe_id(const std::string& s) {
  std::string o;
  for (char c : s) o.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return o;
}

const char* const kKnownKeys[] = {"file", "fixture", "params", "tags", "legs", "arms", "front_legs", "hips",
                                  "tail", "tail_bones", "rigid", "walk", "retarget", "body_torn_max", "floor_y", "golden", "known_gaps", "note"};

}  // namespace

Status load_manifest(const std::string& path, std::vector<Entry>& out) {
  std::ifstream f(path);
  if (!f) return Status::Error(Status::Code::kNotFound, path + ": cannot open corpus manifest");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f, nullptr, true, /*ignore_comments=*/true);
  } catch (const std::exception&) {
    return Status::Error(Status::Code::kBadData, path + ": not valid JSON");
  }
  if (j.value("schema_version", 0) != 1)
    return Status::Error(Status::Code::kBadData, path + ": schema_version must be 1");
  if (!j.contains("entries") || !j["entries"].is_array())
    return Status::Error(Status::Code::kBadData, path + ": \"entries\" must be an array");
  out.clear();
  for (const auto& x : j["entries"]) {
    Entry e;
    try {
      for (const auto& [k, v] : x.items()) {
        (void)v;
        if (std::find(std::begin(kKnownKeys), std::end(kKnownKeys), k) == std::end(kKnownKeys))
          return Status::Error(Status::Code::kBadData, path + ": unknown manifest key '" + k + "'");
      }
      e.file = x.value("file", "");
      e.fixture = x.value("fixture", "");
      if (e.file.empty() == e.fixture.empty())
        return Status::Error(Status::Code::kBadData, path + ": each entry needs exactly one of \"file\", \"fixture\"");
      e.id = e.file.empty() ? "fixture_" + safe_id(e.fixture) : safe_id(fs::path(e.file).stem().string());
      e.params = x.value("params", nlohmann::json::object());
      e.tags = x.value("tags", std::vector<std::string>{});
      e.legs = x.at("legs").get<int>();
      e.arms = x.value("arms", -1);
      e.front_legs = x.value("front_legs", -1);
      e.hips = x.value("hips", "");
      e.tail = x.at("tail").get<std::string>();
      e.tail_bones = x.value("tail_bones", "");
      e.rigid = x.value("rigid", 0);
      e.walk = x.value("walk", "");
      e.retarget = x.value("retarget", "skip");
      e.body_torn_max = x.value("body_torn_max", 0.01);
      e.floor_y = x.value("floor_y", 0.0);
      e.golden = x.value("golden", false);
      // known_gaps: {"check id glob": "why it fails today"}.
      const nlohmann::json gaps = x.value("known_gaps", nlohmann::json::object());
      for (const auto& [pattern, why] : gaps.items()) e.known_gaps.emplace_back(pattern, why.get<std::string>());
    } catch (const std::exception& ex) {
      return Status::Error(Status::Code::kBadData, path + ": entry " + x.dump() + ": " + ex.what());
    }
    if (e.tail != "none" && e.tail != "bones" && e.tail != "rigger")
      return Status::Error(Status::Code::kBadData, path + ": " + e.id + ": tail must be none, bones or rigger");
    if (e.retarget != "animate" && e.retarget != "refuse" && e.retarget != "skip")
      return Status::Error(Status::Code::kBadData, path + ": " + e.id + ": retarget must be animate, refuse or skip");
    if (e.tail == "rigger" && e.fixture.empty())
      return Status::Error(Status::Code::kBadData,
                           path + ": " + e.id + ": tail \"rigger\" needs a fixture (its ground truth is the tail)");
    for (const Entry& o : out)
      if (o.id == e.id) return Status::Error(Status::Code::kBadData, path + ": duplicate entry " + e.id);
    out.push_back(std::move(e));
  }
  return Status::Ok();
}

Status list_characters(const Scenario& s, const std::string& spec, std::string& dir, std::vector<std::string>& files) {
  if (spec.rfind("assets:", 0) == 0) {
    // As resolve_scenario_file does for files: $TAILRIG_ASSETS, else the
    // build's default (../shared/assets beside the repository).
    const char* env = std::getenv("TAILRIG_ASSETS");
    const std::string root = env && *env ? std::string(env) : std::string(TAILRIG_DEFAULT_ASSETS);
    if (!fs::is_directory(root))
      return Status::Error(Status::Code::kNotFound, s.path + ": test assets not found at '" + root +
                                                        "' (set TAILRIG_ASSETS or provide ../shared/assets)");
    dir = root + "/" + spec.substr(7);
  } else {
    dir = fs::path(spec).is_relative() ? (fs::path(s.path).parent_path() / spec).string() : spec;
  }
  if (!fs::is_directory(dir))
    return Status::Error(Status::Code::kNotFound, s.path + ": characters folder missing: " + dir);
  std::error_code ec;
  files.clear();
  for (const auto& de : fs::directory_iterator(dir, ec)) {
    if (de.is_regular_file() && rig::is_character_format(rig::format_of_path(de.path().string())))
      files.push_back(de.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) return Status::Error(Status::Code::kNotFound, s.path + ": no character files in " + dir);
  return Status::Ok();
}

}  // namespace harness::corpus
