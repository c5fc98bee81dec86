// Scenarios that pin the gate's own definitions (issue 13, blind spots 5-6):
//
// - kind "golden_self_check": the golden comparison rule. Every metric of
//   every golden is moved by 2x its allowed deviation (must fail, naming the
//   metric) and by 0.5x (must pass), plus exact synthetic tolerances that
//   tell max(abs, rel|g|) from a sum, a minimum or a looser factor. A
//   comparison made 10x looser (or stricter) can no longer pass the gate.
// - kind "metric_definitions": each metric's definition on a tiny exact case
//   (measure::percentile interpolation, torn thresholds, edge ratio, K rounding, blend
//   weights, weighted bone distance, tail motion). The scenario's "expect"
//   entries state the exact answers ("==" within 1e-12), so a definition
//   change that moves real metrics less than their tolerance still fails.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "detect/geometry/bone_distance.h"
#include "detect/rewrite/grow_chain.h"
#include "harness/gate/golden.h"
#include "measure/edge_stretch.h"
#include "measure/tail_motion.h"
#include "harness/gate/runners.h"

namespace harness {

using nlohmann::json;
using rig::Status;

namespace {

namespace fs = std::filesystem;

Status bad(const Scenario& s, const std::string& m) { return Status::Error(Status::Code::kBadData, s.path + ": " + m); }

// One comparison of a single-metric golden against `actual`; true when the
// verdict (pass / fail naming the metric) is the expected one.
bool verdict_right(const std::string& name, const json& entry, double actual, bool should_pass) {
  const json golden = {{"metrics", {{name, entry}}}};
  ScenarioResult r;
  r.metrics[name] = actual;
  if (!compare_with_golden_json(golden, "self-check", r).ok()) return false;
  if (should_pass) return r.failures.empty();
  return r.failures.size() == 1 && r.failures[0].rfind(name + ":", 0) == 0;
}

struct Tally {
  long cases = 0, wrong = 0;
  std::vector<std::string> first_wrong;  // a few, for the failure message
  void add(bool right, const std::string& what) {
    ++cases;
    if (right) return;
    ++wrong;
    if (first_wrong.size() < 5) first_wrong.push_back(what);
  }
};

// Perturbations of one golden metric: +-2x allowed must fail, +-0.5x pass. A
// zero tolerance must reject the smallest visible change and accept equality.
void perturb_metric(const std::string& file, const std::string& name, const json& entry, Tally& t) {
  const double g = entry["value"].get<double>();
  const double a = allowed_deviation(entry.value("tolerance", json{{"rel", 0.01}}), g);
  const std::string where = file + " " + name;
  if (a > 0) {
    for (double sign : {1.0, -1.0}) {
      t.add(verdict_right(name, entry, g + sign * 2.0 * a, false), where + " moved by 2x its tolerance passed");
      t.add(verdict_right(name, entry, g + sign * 0.5 * a, true), where + " moved by 0.5x its tolerance failed");
    }
  } else {
    const double d = std::max(1e-12, 1e-9 * std::abs(g));
    t.add(verdict_right(name, entry, g + d, false), where + " (zero tolerance) accepted a change");
    t.add(verdict_right(name, entry, g, true), where + " (zero tolerance) rejected its own value");
  }
}

// Synthetic tolerances whose answers tell the rule max(abs, rel|g|) apart
// from abs + rel|g|, min(abs, rel|g|), a default other than rel 1 % and a
// non-strict or absolute-value-free comparison.
void synthetic_rules(Tally& t) {
  struct Case {
    json tolerance;  // null = entry without a tolerance
    double golden, actual;
    bool pass;
  };
  const Case cases[] = {
      {{{"abs", 0.1}, {"rel", 0.1}}, 10.0, 10.95, true},   // max = 1.0 (min would be 0.1)
      {{{"abs", 0.1}, {"rel", 0.1}}, 10.0, 11.05, false},  // sum would be 1.1
      {{{"abs", 2.0}, {"rel", 0.01}}, 10.0, 11.9, true},   // abs wins
      {{{"abs", 2.0}, {"rel", 0.01}}, 10.0, 7.9, false},
      {{{"rel", 0.1}}, -10.0, -10.9, true},                // rel of |golden|
      {{{"rel", 0.1}}, -10.0, -8.9, false},
      {{{"abs", 0.5}}, 0.0, 0.49, true},
      {{{"abs", 0.5}}, 0.0, -0.51, false},
      {nullptr, 100.0, 100.9, true},                        // default rel 1 %
      {nullptr, 100.0, 101.1, false},
      {{{"abs", 0.0}}, 3.0, 3.0, true},
  };
  for (const Case& c : cases) {
    json entry = {{"value", c.golden}};
    if (!c.tolerance.is_null()) entry["tolerance"] = c.tolerance;
    t.add(verdict_right("m", entry, c.actual, c.pass),
          "synthetic " + entry.dump() + " actual " + std::to_string(c.actual) + (c.pass ? " failed" : " passed"));
  }
  // A metric missing from either side fails; a NaN never passes.
  {
    ScenarioResult r;
    r.metrics["other"] = 1.0;
    (void)compare_with_golden_json({{"metrics", {{"m", {{"value", 1.0}}}}}}, "self-check", r);
    t.add(r.failures.size() == 2, "a metric missing from the run or from the golden was not reported");
    t.add(!verdict_right("m", {{"value", 1.0}, {"tolerance", {{"abs", 1e9}}}}, std::nan(""), true),
          "NaN passed a golden");
  }
}

// The expectation operators on their boundaries.
void expectation_rules(Tally& t) {
  struct Case {
    const char* op;
    double v, rhs, within;
    bool holds;
  };
  const Case cases[] = {{"<=", 1, 1, 0, true},   {"<", 1, 1, 0, false},  {">=", 1, 1, 0, true},
                        {">", 1, 1, 0, false},   {"<", 0.9, 1, 0, true}, {">", 1.1, 1, 0, true},
                        {"==", 1, 1.1, 0.2, true}, {"==", 1, 1.3, 0.2, false}, {"==", 2, 2, 0, true},
                        {"<=", std::nan(""), 1, 0, false}, {">=", std::nan(""), 1, 0, false}};
  for (const Case& c : cases)
    t.add(expectation_holds(c.op, c.v, c.rhs, c.within) == c.holds,
          std::string("expectation ") + std::to_string(c.v) + " " + c.op + " " + std::to_string(c.rhs) + " misjudged");
}

}  // namespace

Status run_golden_self_check(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  std::string dir;
  const std::string spec = s.raw.value("goldens", std::string("../golden"));
  dir = fs::path(spec).is_relative() ? (fs::path(s.path).parent_path() / spec).string() : spec;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return bad(s, "no golden directory at " + dir);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  Tally goldens, rules;
  long metric_count = 0, file_count = 0;
  for (const std::string& path : files) {
    std::ifstream f(path);
    json g;
    try {
      g = json::parse(f);
    } catch (const std::exception&) {
      continue;  // its own scenario reports the broken file (exit 2)
    }
    if (!g.is_object() || !g.contains("metrics") || !g["metrics"].is_object()) continue;
    ++file_count;
    const std::string file = fs::path(path).filename().string();
    ScenarioResult whole;  // every value as recorded: the full document passes
    for (const auto& [name, entry] : g["metrics"].items()) {
      if (!entry.is_object() || !entry.contains("value") || !entry["value"].is_number()) continue;
      whole.metrics[name] = entry["value"];
      perturb_metric(file, name, entry, goldens);
      ++metric_count;
    }
    goldens.add(compare_with_golden_json(g, path, whole).ok() && whole.failures.empty(),
                file + ": its own recorded values do not pass");
  }
  synthetic_rules(rules);
  expectation_rules(rules);
  const long min_files = s.raw.value("min_goldens", 10L);
  if (file_count < min_files)
    out.failures.push_back("only " + std::to_string(file_count) + " goldens read in " + dir + " (expected >= " +
                           std::to_string(min_files) + "): the self-check checked almost nothing");
  // Counts go to notes, not metrics: adding a scenario must not move this golden.
  out.notes.push_back(std::to_string(file_count) + " goldens, " + std::to_string(metric_count) + " metrics, " +
                      std::to_string(goldens.cases) + " perturbations; " + std::to_string(rules.cases) +
                      " rule cases");
  for (const auto& w : goldens.first_wrong) out.notes.push_back("wrong verdict: " + w);
  for (const auto& w : rules.first_wrong) out.notes.push_back("wrong verdict: " + w);
  out.metrics["golden_perturbations.wrong_verdicts"] = goldens.wrong;
  out.metrics["comparison_rules.wrong_verdicts"] = rules.wrong;
  return Status::Ok();
}

Status run_metric_definitions(const Scenario& s, const RunOptions&, ScenarioResult& out) {
  const json& j = s.raw;
  try {
    // Percentiles of a known sample (any order in, numpy "linear" out).
    const auto sample = j.at("percentile_sample").get<std::vector<double>>();
    for (double q : j.at("percentiles").get<std::vector<double>>()) {
      char key[64];
      std::snprintf(key, sizeof key, "percentile.p%g", q);
      out.metrics[key] = measure::percentile(sample, q);
    }
    // Torn: strictly above 1.5 or strictly below 0.67.
    const measure::StretchStats st = measure::stretch_stats(j.at("torn_ratios").get<std::vector<double>>());
    out.metrics["torn.fraction"] = st.torn_fraction;
    out.metrics["torn.p50"] = st.p50;
    // Edge ratio on one triangle: skinned / bind length, degenerate edges skipped.
    const std::vector<Eigen::Vector3d> bind = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}};
    const std::vector<Eigen::Vector3d> posed = {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {5, 5, 5}};
    const std::vector<std::pair<int, int>> edges = {{0, 1}, {0, 2}, {1, 2}, {0, 3}};
    std::vector<double> ratios;
    measure::append_edge_ratios(bind, posed, edges, ratios);
    const measure::StretchStats er = measure::stretch_stats(ratios);
    out.metrics["edge_ratio.count"] = static_cast<long>(ratios.size());
    out.metrics["edge_ratio.max"] = er.max;
    out.metrics["edge_ratio.min"] = er.min;
    out.metrics["edge_ratio.torn_fraction"] = er.torn_fraction;
    // K = clamp(round(L / 0.1H), 3, 8) for L in units of 0.1 H (H = 10, exact).
    for (double ratio : j.at("bone_count_ratios").get<std::vector<double>>()) {
      char key[64];
      std::snprintf(key, sizeof key, "bone_count.L_%g", ratio);
      out.metrics[key] = detect::bone_count(ratio, 10.0);
    }
    out.metrics["bone_count.fox"] = detect::bone_count(0.81, 1.91);
    // Blend weights inside a segment (SPEC §3) and the tip rule (§11).
    for (double f : {0.1, 0.5, 0.9}) {
      const auto w = detect::blend_weights(f);
      char key[64];
      std::snprintf(key, sizeof key, "blend.f%g.", f);
      out.metrics[std::string(key) + "prev"] = w[0];
      out.metrics[std::string(key) + "self"] = w[1];
      out.metrics[std::string(key) + "next"] = w[2];
    }
    double tip_last = 0;  // weight of the last bone (joint 10 + 3) at g = L
    for (const auto& inf : detect::chain_influences(2.0, 2.0, 4, 0, 10))
      if (inf.joint == 13) tip_last = inf.weight;
    out.metrics["chain.tip_weight_on_last_bone"] = tip_last;
    // Weighted bone distance: a vertex at (1, 0.5, 0) half on a unit bone
    // along Y (distance 1), half on the end joint's extension segment from
    // (0,1,0) (distance sqrt(1.25)): (1 + sqrt(1.25)) / 2.
    rig::Skeleton sk;
    sk.names = {"Root", "End"};
    sk.parents = {-1, 0};
    rig::Mat4 w0 = rig::Mat4::Identity(), w1 = rig::Mat4::Identity();
    w1(1, 3) = 1.0;
    sk.bind_world = {w0, w1};
    sk.inverse_bind = {w0.inverse(), w1.inverse()};
    const auto bones = detect::bones_by_joint(sk);
    out.metrics["bone_distance.half_half"] =
        detect::weighted_bone_distance(rig::Vec3(1, 0.5, 0), {{0, 0.5}, {1, 0.5}}, bones);
    // Tail motion: tip range = largest pairwise distance, RMS about the mean,
    // bone angle range = largest angle between two directions.
    const std::vector<Eigen::Vector3d> tips = {{0, 0, 0}, {3, 4, 0}, {0, 0, 1}};
    const std::vector<Eigen::Vector3d> one_bone = {Eigen::Vector3d(0, -1, 0), Eigen::Vector3d(0, 0, -1),
                                                   Eigen::Vector3d(0, -1, 0)};
    const measure::TailMotion m = measure::tail_motion(tips, {one_bone});
    out.metrics["tail_motion.tip_range"] = m.tip_range;
    out.metrics["tail_motion.tip_rms"] = m.tip_rms;
    out.metrics["tail_motion.bone_angle_range_deg"] = m.bone_angle_range_deg.at(0);
  } catch (const std::exception& e) {
    return bad(s, std::string("definition cases: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace harness
