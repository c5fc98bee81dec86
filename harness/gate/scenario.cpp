#include "harness/gate/scenario.h"

#include "harness/gate/fixture_cache.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fixtures/fixtures.h"
#include "harness/gate/product_path.h"
#include "harness/gate/result.h"
#include "rig/io/io.h"

namespace harness {

namespace fs = std::filesystem;
using rig::Status;
using nlohmann::json;

namespace {

// Every numeric scenario parameter a runner reads, with its range. A value
// outside (or of the wrong type) is a one-line error at load time, so no
// runner can be asked to simulate for days, allocate a billion chains or
// throw a JSON type error from a worker thread.
struct Range {
  const char* key;
  double lo, hi;
  bool integer = false;
};
constexpr double kMaxScenarioSeconds = 600;  // any simulated or sampled duration
constexpr int kMaxChainBones = 32;           // "chains": bones per chain
constexpr size_t kMaxListLength = 64;        // any list of numbers
constexpr Range kTopLevel[] = {
    {"chains", 1, kMaxChainBones, true}, {"fps", 1, 1000}, {"extra_fps", 1, 1000},
    {"duration_s", 0, kMaxScenarioSeconds}, {"hold_s", 0, kMaxScenarioSeconds}, {"settle_s", 0, kMaxScenarioSeconds},
    {"jump_time_s", 0, kMaxScenarioSeconds}, {"settle_move_s", 0.001, kMaxScenarioSeconds},
    {"settle_hold_s", 0, kMaxScenarioSeconds}, {"swing_time_s", 0.001, kMaxScenarioSeconds},
    {"tail_length_m", 0.01, 100}, {"hips_height_m", 0.01, 100}, {"model_height_m", 0.01, 100},
    {"swing_m", -100, 100}, {"turn_deg", -3600, 3600}, {"jump_m", -10000, 10000}, {"jump_turn_deg", -3600, 3600},
    {"settle_low_hips_m", -100, 100}, {"floor_raise_m", -100, 100}, {"floors_m", -100, 100},
    {"move_hips_m", -100, 100}, {"rotate_hips_deg", -3600, 3600}, {"neighbour_slack_deg", 0, 180},
    {"neighbour_factor", 0, 1000}, {"max_length_error_rel", 0, 1000}, {"min_tip_excursion_rel", 0, 1000},
    {"loops", 1, 100, true}, {"warmup_loops", 0, 1000, true}, {"settle_bones", 1, kMaxChainBones, true},
    {"sample_rate_hz", 1, 1000}, {"rate", 1, 1000}, {"table_fractions", 0, 1}, {"samples", 1, 100000, true},
};
constexpr Range kSolver[] = {
    {"root_frequency_hz", 0, 100}, {"tip_frequency_hz", 0, 100}, {"damping_ratio", 0, 100},
    {"gravity", -1000, 1000}, {"carry_deg", -360, 360}, {"rest_curve", 0, 1}, {"bend_coupling_rate", 0, 10000},
    {"bend_limit_deg", -360, 360}, {"floor_height", -100, 100}, {"floor_clearance", 0, 10},
    {"collider_margin", 0, 10}, {"collider_friction", 0, 1},
    {"contact_damping", 0, 10000}, {"internal_step", 1e-4, 1}, {"teleport_distance", 0, 1e12},
    {"teleport_angle_deg", 0, 1e12},  // out of reach = teleport handling off
};
constexpr Range kGrounding[] = {
    {"points_per_joint", 1, 1000, true}, {"smoothing_radius_s", 0, 60}, {"contact_shin_fraction", 0, 1},
    {"allowed_sink_m", 0, 10},
};
constexpr Range kFixture[] = {
    {"seed", 0, 1e15, true}, {"height", 0.05, 100}, {"tail_length", 0, 5}, {"tail_radius", 0, 1},
    {"tail_curl", -720, 720}, {"tail_side_curl", -720, 720}, {"attach_angle", -360, 360}, {"density", 0.05, 4},
    {"unit_scale", 1e-4, 1e4}, {"armature_scale", 1e-4, 1e4}, {"tail_bones", 1, kMaxChainBones, true},
    {"tail_below_soles", 0, 0.5}, {"weight_steps", 0, 65535, true},
};
constexpr const char* kBooleans[] = {"twisted_frames", "count_tail"};
constexpr const char* kSolverBooleans[] = {"forward_plane", "floor_enabled"};
// Historical bugs of SPEC §4 that a solver invariant scenario re-enables in
// one of its "variants_solver" (read by harness/gate/solver, not spring
// parameters): accepted there only.
constexpr const char* kSeededBugBooleans[] = {"test_bug_fixed_fraction_follow", "test_bug_rope_velocity_feedback",
                                              "test_bug_carry_per_joint"};

std::string fmt(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// "" when `v` (a number or a list of numbers) is within `r`; else why not.
std::string check_number(const Range& r, const json& v) {
  const std::string range = (r.integer ? "an integer " : "a number ") + fmt(r.lo) + ".." + fmt(r.hi);
  auto one = [&](const json& x) {
    if (!x.is_number()) return false;
    const double d = x.get<double>();
    return std::isfinite(d) && d >= r.lo && d <= r.hi && (!r.integer || d == std::floor(d));
  };
  if (v.is_array()) {
    if (v.empty() || v.size() > kMaxListLength)
      return std::string("\"") + r.key + "\" must hold 1.." + std::to_string(kMaxListLength) + " values";
    for (const json& x : v)
      if (!one(x)) return std::string("\"") + r.key + "\" values must each be " + range + " (got " + x.dump() + ")";
    return "";
  }
  if (!one(v)) return std::string("\"") + r.key + "\" must be " + range + " (got " + v.dump().substr(0, 40) + ")";
  return "";
}

template <size_t N>
std::string check_object(const json& obj, const char* where, const Range (&ranges)[N]) {
  if (!obj.is_object()) return std::string("\"") + where + "\" must be an object";
  for (const Range& r : ranges)
    if (obj.contains(r.key))
      if (std::string e = check_number(r, obj[r.key]); !e.empty()) return std::string(where) + ": " + e;
  return "";
}

std::string check_solver(const json& obj, const std::string& where, bool seeded_bugs_allowed) {
  if (std::string e = check_object(obj, where.c_str(), kSolver); !e.empty()) return e;
  for (const char* k : kSolverBooleans)
    if (obj.contains(k) && !obj[k].is_boolean()) return where + ": \"" + k + "\" must be true or false";
  for (const char* k : kSeededBugBooleans) {
    if (!obj.contains(k)) continue;
    if (!seeded_bugs_allowed) return where + ": \"" + k + "\" (a seeded historical bug) belongs in \"variants_solver\"";
    if (!obj[k].is_boolean()) return where + ": \"" + k + "\" must be true or false";
  }
  return "";
}

}  // namespace

std::string validate_character(const json& c, const std::string& where) {
  if (!c.is_object()) return where + " must be an object";
  if (c.contains("fixture") && !c["fixture"].is_string()) return where + ".fixture must be a name";
  if (c.contains("file") && !c["file"].is_string()) return where + ".file must be a path";
  if (c.contains("params"))
    if (std::string e = check_object(c["params"], (where + ".params").c_str(), kFixture); !e.empty()) return e;
  if (c.contains("via_file") && c["via_file"] != "glb") return where + ".via_file must be \"glb\"";
  if (c.contains("seam_drift") && !(c["seam_drift"].is_number() && c["seam_drift"].get<double>() >= 0 &&
                                    c["seam_drift"].get<double>() <= 1e-2))
    return where + ".seam_drift must be a number 0..0.01 (fraction of H)";
  if (c.contains("stored_pose")) {
    const json& p = c["stored_pose"];
    if (!p.is_object() || !p.contains("clip") || !p["clip"].is_string() || !p.contains("time") ||
        !p["time"].is_number() || !(p["time"].get<double>() >= 0 && p["time"].get<double>() <= kMaxScenarioSeconds) ||
        (p.contains("root_turn_deg") && !(p["root_turn_deg"].is_number() && std::abs(p["root_turn_deg"].get<double>()) <= 360)))
      return where + ".stored_pose must be {\"clip\": NAME, \"time\": seconds, \"root_turn_deg\": -360..360}";
  }
  if ((c.contains("via_file") || c.contains("seam_drift") || c.contains("stored_pose")) && !c.contains("fixture"))
    return where + ": via_file, seam_drift and stored_pose apply to fixtures only";
  return "";
}

namespace {

std::string validate_parameters(const json& j) {
  for (const Range& r : kTopLevel)
    if (j.contains(r.key))
      if (std::string e = check_number(r, j[r.key]); !e.empty()) return e;
  for (const char* k : kBooleans)
    if (j.contains(k) && !j[k].is_boolean()) return std::string("\"") + k + "\" must be true or false";
  for (const char* k : {"description", "notes", "clip", "kind"})
    if (j.contains(k) && !j[k].is_string()) return std::string("\"") + k + "\" must be a string";
  for (const char* k : {"character", "tolerances", "variants_solver", "grounding"})
    if (j.contains(k) && !j[k].is_object()) return std::string("\"") + k + "\" must be an object";
  for (const char* k : {"variants", "clips", "sources", "grounding_variants", "expect"})
    if (j.contains(k) && (!j[k].is_array() || j[k].size() > kMaxListLength))
      return std::string("\"") + k + "\" must be a list of at most " + std::to_string(kMaxListLength) + " entries";
  if (j.contains("variants"))
    for (const json& v : j["variants"])
      if (!v.is_string()) return "\"variants\" must be a list of names";
  if (j.contains("solver"))
    if (std::string e = check_solver(j["solver"], "solver", false); !e.empty()) return e;
  if (j.contains("variants_solver"))
    for (const auto& [k, v] : j["variants_solver"].items())
      if (std::string e = check_solver(v, "variants_solver." + k, true); !e.empty()) return e;
  if (j.contains("grounding"))
    if (std::string e = check_object(j["grounding"], "grounding", kGrounding); !e.empty()) return e;
  if (j.contains("grounding_variants"))
    for (const json& v : j["grounding_variants"]) {
      if (std::string e = check_object(v, "grounding_variants", kGrounding); !e.empty()) return e;
      if (!v.contains("key") || !v["key"].is_string()) return "grounding_variants: each needs a \"key\" string";
    }
  if (j.contains("character"))
    if (std::string e = validate_character(j["character"], "character"); !e.empty()) return e;
  if (j.contains("characters") && !j["characters"].is_string()) {  // a string: the corpus's folder
    if (!j["characters"].is_array() || j["characters"].empty() || j["characters"].size() > 8)
      return "\"characters\" must be a list of 1..8 character objects";
    for (const json& c : j["characters"]) {
      if (std::string e = validate_character(c, "characters[]"); !e.empty()) return e;
      if (!c.contains("prefix") || !c["prefix"].is_string()) return "characters[]: each needs a \"prefix\" string";
    }
  }
  if (j.contains("tolerances"))
    for (const auto& [k, v] : j["tolerances"].items()) {
      if (!v.is_object()) return "tolerances." + k + " must be an object {\"abs\": x, \"rel\": y}";
      for (const char* t : {"abs", "rel"})
        if (v.contains(t) && (!v[t].is_number() || !(v[t].get<double>() >= 0)))
          return "tolerances." + k + "." + t + " must be a number >= 0";
    }
  return "";
}

}  // namespace

Status parse_expectation(const nlohmann::json& e, const std::string& path, Expectation& x) {
  try {
    x = Expectation{};
    x.metric = e.at("metric");
    x.op = e.at("op");
    x.why = e.value("why", "");
    if (e.contains("other")) {
      x.other = e.at("other");
      x.factor = e.value("factor", 1.0);
      if (e.contains("value"))
        return Status::Error(Status::Code::kBadData, path + ": expect on " + x.metric + ": give \"value\" or \"other\", not both");
    } else {
      x.value = e.at("value");
    }
    x.within = e.value("within", 0.0);
  } catch (const std::exception& ex) {
    return Status::Error(Status::Code::kBadData, path + ": " + ex.what());
  }
  if (x.op != "<" && x.op != "<=" && x.op != ">" && x.op != ">=" && x.op != "==")
    return Status::Error(Status::Code::kBadData, path + ": unknown expect op '" + x.op + "'");
  if (!std::isfinite(x.value) || !std::isfinite(x.factor) || !(x.within >= 0) || !std::isfinite(x.within))
    return Status::Error(Status::Code::kBadData, path + ": expect on " + x.metric + ": value, factor, within must be finite (within >= 0)");
  return Status::Ok();
}

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
    if (!j.is_object()) return Status::Error(Status::Code::kBadData, path + ": a scenario is a JSON object");
    // Checked as every parameter is (check_number reads it as a double: a
    // JSON integer past int64, which parses as one, never reaches an int cast;
    // fuzz_json: "schema_version": 555...5).
    constexpr double kVersion = kScenarioSchemaVersion;
    const auto version = j.find("schema_version");
    if (version == j.end() || !check_number({"schema_version", kVersion, kVersion, true}, *version).empty())
      return Status::Error(Status::Code::kBadData,
                           path + ": schema_version must be " + std::to_string(kScenarioSchemaVersion));
    if (std::string e = validate_parameters(j); !e.empty())
      return Status::Error(Status::Code::kBadData, path + ": " + e);
    s = Scenario{};
    s.raw = j;
    s.path = path;
    s.name = fs::path(path).stem().string();
    s.description = j.value("description", "");
    s.kind = j.at("kind").get<std::string>();
    s.character = j.value("character", nlohmann::json::object());
    s.clip = j.value("clip", "");
    s.samples = j.value("samples", 24);  // validate_parameters: an integer 1..100000
    s.variants = j.value("variants", std::vector<std::string>{});
    s.solver = j.value("solver", nlohmann::json::object());
    s.tolerances = j.value("tolerances", nlohmann::json::object());
    s.notes = j.value("notes", "");
    for (const char* key : {"expect", "batch_expect"}) {
      for (const auto& e : j.value(key, nlohmann::json::array())) {
        Expectation x;
        if (Status st = parse_expectation(e, path, x); !st.ok()) return st;
        (std::string(key) == "expect" ? s.expect : s.batch_expect).push_back(x);
      }
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

Status apply_fixture_params(const nlohmann::json& params, const std::string& where, fixtures::FixtureParams& p) {
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
      else if (k == "tail_below_soles") p.tail_below_soles = v;
      else if (k == "weight_steps") p.weight_steps = v;
      else return Status::Error(Status::Code::kBadData, where + ": unknown fixture parameter '" + k + "'");
    }
  } catch (const std::exception& e) {
    return Status::Error(Status::Code::kBadData, where + ": fixture parameters: " + e.what());
  }
  return Status::Ok();
}

Status load_scenario_character(const Scenario& s, rig::Character& out) {
  return load_character_spec(s, s.character, out);
}

Status load_chained_scenario_character(const Scenario& s, detect::FixResult& out) {
  rig::Character original;
  if (Status st = load_scenario_character(s, original); !st.ok()) return st;
  // A fixture as built is detected once per run (FixtureCache::chained).
  const std::string key = plain_fixture_key(s.character);
  const Status st = s.fixtures && !key.empty() ? s.fixtures->chained(key, original, out)
                                               : detect::fix(original, detect::Mode::kChain, detect::Params{}, out);
  if (!st.ok()) fail_regression(s.name, "detect --chain: " + st.message);
  if (out.chains < 1) fail_regression(s.name, "detect found no tail chain");
  return Status::Ok();
}

Status load_character_spec(const Scenario& s, const nlohmann::json& c, rig::Character& out) {
  if (std::string e = validate_character(c, "character"); !e.empty())
    return Status::Error(Status::Code::kBadData, s.path + ": " + e);
  if (c.contains("fixture")) {
    const std::string name = c["fixture"];
    fixtures::FixtureParams p = fixtures::default_params(name);
    const auto params = c.value("params", nlohmann::json::object());
    if (Status st = apply_fixture_params(params, s.path, p); !st.ok()) return st;
    std::string error;
    if (!make_fixture_cached(s.fixtures, name, params.dump(), p, out, &error))
      return Status::Error(Status::Code::kBadData, s.path + ": " + error);
    if (const double drift = c.value("seam_drift", 0.0); drift > 0) add_seam_drift(out, drift);
    if (c.contains("stored_pose"))
      if (!store_clip_pose(out, c["stored_pose"]["clip"], c["stored_pose"]["time"],
                           c["stored_pose"].value("root_turn_deg", 0.0)))
        return Status::Error(Status::Code::kBadData, s.path + ": stored_pose: no clip " + c["stored_pose"]["clip"].dump());
    if (c.value("via_file", std::string()) == "glb") {
      // The product path: the fixture as an exporter would hand it over.
      // Our own writer and reader failing on our own fixture is a regression.
      if (Status st = round_trip_glb(s.name, out); !st.ok()) fail_regression(s.name, "GLB round trip: " + st.message);
    }
    return Status::Ok();
  }
  if (c.contains("file")) {
    std::string file;
    if (Status st = resolve_scenario_file(s, c["file"], file); !st.ok()) return st;
    return load_cached(s.fixtures, file, out);
  }
  return Status::Error(Status::Code::kBadData, s.path + ": character needs \"fixture\" or \"file\"");
}

}  // namespace harness
