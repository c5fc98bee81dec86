// A scenario: one JSON file under scenarios/ saying what to measure.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "detect/find_appendages.h"
#include "fixtures/fixtures.h"
#include "rig/io/io.h"

namespace harness {

class FixtureCache;  // fixture_cache.h

inline constexpr int kScenarioSchemaVersion = 1;

// An invariant the scenario states, checked every run:
//   metric OP value                  {"metric", "op", "value"}
//   metric OP factor * other         {"metric", "op", "other", "factor" (1)}
// OP is "<", "<=", ">", ">=" or "==" (|metric - rhs| <= "within", default 0:
// an exact definition). Comparing two metrics states a law ("the chain
// tears no more than the body") that no --update-golden can erase.
struct Expectation {
  std::string metric;
  std::string op;
  double value = 0;
  std::string other;  // second metric; empty = compare with `value`
  double factor = 1;  // rhs = factor * other
  double within = 0;  // "==" tolerance, absolute
  std::string why;
};

struct Scenario {
  std::string name;         // file stem
  std::string path;         // the JSON file
  std::string description;  // one line
  std::string kind;         // which runner: "edge_stretch", ...
  // {"fixture": NAME, "params": {...}, "seam_drift": x, "via_file": "glb"} or
  // {"file": PATH}; see load_character_spec.
  nlohmann::json character;
  std::string clip;
  int samples = 24;  // evenly spaced over the clip
  std::vector<std::string> variants;
  nlohmann::json solver;      // ChainParams overrides by field name
  nlohmann::json tolerances;  // metric -> {"abs": x} / {"rel": x}; "*" is the default
  std::vector<Expectation> expect;
  // --solver batch: replaces the expectations of the same metric (float lanes
  // cannot meet a few bounds set at double precision).
  std::vector<Expectation> batch_expect;
  std::string notes;
  nlohmann::json raw;  // the whole file, for runners with extra fields
  // Not from the file: fixtures built once for every scenario of a run, set
  // by its caller (harness run); null builds each fixture where it is named.
  FixtureCache* fixtures = nullptr;
};

// Reads and checks one scenario file; one-line message on error.
rig::Status load_scenario(const std::string& path, Scenario& out);

// One entry of a scenario's "expect" (or "batch_expect") list, validated:
// {metric, op, value | other [, factor], within, why}.
rig::Status parse_expectation(const nlohmann::json& entry, const std::string& path, Expectation& out);

// Every scenarios/*.json under `dir`, sorted by name.
rig::Status list_scenarios(const std::string& dir, std::vector<std::string>& paths);

// A file a scenario names: "assets:REL" is REL in $TAILRIG_ASSETS (default
// ../shared/assets beside the repository), a relative path lies beside the
// scenario file. kNotFound, one line, when the assets folder or the file is
// missing.
rig::Status resolve_scenario_file(const Scenario& s, const std::string& spec, std::string& out);

// Fixture parameters from a JSON object ({"tail_length": 0.8, ...}) over `p`;
// unknown keys and wrong types are a data error naming `where`.
rig::Status apply_fixture_params(const nlohmann::json& params, const std::string& where, fixtures::FixtureParams& p);

// The character a scenario names: a fixture (with parameters) or a file
// (relative to the scenario file; a leading "assets:" means $TAILRIG_ASSETS
// or ../shared/assets beside the repository).
rig::Status load_scenario_character(const Scenario& s, rig::Character& out);
// That character after detect --chain (default params), which must grow a
// tail chain: a failure or no chain is a regression (fail_regression).
rig::Status load_chained_scenario_character(const Scenario& s, detect::FixResult& out);

// One character object (s.character or an entry of a runner's list):
// "seam_drift": x moves the split seam copies of a fixture's vertices apart
// by x H (add_seam_drift); "via_file": "glb" writes the fixture to GLB and
// reads it back (round_trip_glb), so the loader's bind pose, units and
// armature scale are on the measured path; "stored_pose": {"clip", "time"}
// stores that clip frame as the file's loaded pose (store_clip_pose), which
// must change nothing downstream. A fixture that does not survive
// the round trip is a ScenarioRegression.
rig::Status load_character_spec(const Scenario& s, const nlohmann::json& spec, rig::Character& out);

// "" when `c` is a well-formed character object; else why not, naming `where`.
std::string validate_character(const nlohmann::json& c, const std::string& where);

}  // namespace harness
