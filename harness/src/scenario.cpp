#include "scenario.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fixtures/fixtures.h"

namespace harness {

namespace fs = std::filesystem;
using rig::Status;

Status load_scenario(const std::string& path, Scenario& s) {
  std::ifstream f(path);
  if (!f) return Status::Error(Status::Code::kNotFound, path + ": cannot open scenario");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const std::exception& e) {
    return Status::Error(Status::Code::kBadData, path + ": not valid JSON");
  }
  try {
    if (j.value("schema_version", 0) != kScenarioSchemaVersion)
      return Status::Error(Status::Code::kBadData,
                           path + ": schema_version must be " + std::to_string(kScenarioSchemaVersion));
    s = Scenario{};
    s.raw = j;
    s.path = path;
    s.name = fs::path(path).stem().string();
    s.description = j.value("description", "");
    s.kind = j.at("kind").get<std::string>();
    s.character = j.value("character", nlohmann::json::object());
    s.clip = j.value("clip", "");
    s.samples = j.value("samples", 24);
    s.variants = j.value("variants", std::vector<std::string>{});
    s.solver = j.value("solver", nlohmann::json::object());
    s.tolerances = j.value("tolerances", nlohmann::json::object());
    s.notes = j.value("notes", "");
    for (const auto& e : j.value("expect", nlohmann::json::array())) {
      Expectation x{e.at("metric"), e.at("op"), e.at("value"), e.value("why", "")};
      if (x.op != "<" && x.op != "<=" && x.op != ">" && x.op != ">=")
        return Status::Error(Status::Code::kBadData, path + ": unknown expect op '" + x.op + "'");
      s.expect.push_back(x);
    }
    if (s.samples < 1 || s.samples > 100000)
      return Status::Error(Status::Code::kBadData, path + ": samples must be 1..100000");
  } catch (const std::exception& e) {
    return Status::Error(Status::Code::kBadData, path + ": " + e.what());
  }
  return Status::Ok();
}

Status list_scenarios(const std::string& dir, std::vector<std::string>& paths) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Status::Error(Status::Code::kNotFound, dir + ": no scenarios directory");
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  return Status::Ok();
}

namespace {

std::string assets_dir() {
  if (const char* env = std::getenv("TAILRIG_ASSETS"); env && *env) return env;
  return TAILRIG_DEFAULT_ASSETS;
}

}  // namespace

Status resolve_scenario_file(const Scenario& s, const std::string& spec, std::string& out) {
  if (spec.rfind("assets:", 0) != 0) {
    out = fs::path(spec).is_relative() ? (fs::path(s.path).parent_path() / spec).string() : spec;
  } else {
    const std::string dir = assets_dir();
    if (!fs::is_directory(dir))
      return Status::Error(Status::Code::kNotFound, s.path + ": test assets not found at '" + dir +
                                                        "' (set TAILRIG_ASSETS or provide ../shared/assets)");
    out = dir + "/" + spec.substr(7);
  }
  if (!fs::is_regular_file(out)) return Status::Error(Status::Code::kNotFound, s.path + ": file missing: " + out);
  return Status::Ok();
}

Status load_scenario_character(const Scenario& s, rig::Character& out) {
  const auto& c = s.character;
  if (c.contains("fixture")) {
    const std::string name = c["fixture"];
    fixtures::FixtureParams p = fixtures::default_params(name);
    const auto params = c.value("params", nlohmann::json::object());
    try {
      for (const auto& [k, v] : params.items()) {
        if (k == "seed") p.seed = v.get<std::uint64_t>();
        else if (k == "height") p.height = v;
        else if (k == "tail_length") p.tail_length = v;
        else if (k == "tail_radius") p.tail_radius = v;
        else if (k == "tail_curl") p.tail_curl = v;
        else if (k == "tail_side_curl") p.tail_side_curl = v;
        else if (k == "attach_angle") p.attach_angle = v;
        else if (k == "density") p.density = v;
        else if (k == "unit_scale") p.unit_scale = v;
        else if (k == "armature_scale") p.armature_scale = v;
        else if (k == "tail_bones") p.tail_bones = v;
        else return Status::Error(Status::Code::kBadData, s.path + ": unknown fixture parameter '" + k + "'");
      }
    } catch (const std::exception& e) {
      return Status::Error(Status::Code::kBadData, s.path + ": fixture parameters: " + e.what());
    }
    std::string error;
    if (!fixtures::make_fixture(name, p, out, &error))
      return Status::Error(Status::Code::kBadData, s.path + ": " + error);
    return Status::Ok();
  }
  if (c.contains("file")) {
    std::string file;
    if (Status st = resolve_scenario_file(s, c["file"], file); !st.ok()) return st;
    return rig::load(file, out);
  }
  return Status::Error(Status::Code::kBadData, s.path + ": character needs \"fixture\" or \"file\"");
}

}  // namespace harness
