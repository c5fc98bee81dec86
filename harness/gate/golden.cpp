#include "harness/gate/golden.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "rig/io/safe_write.h"
#include "harness/gate/version.h"

namespace harness {

using rig::Status;
using nlohmann::json;

namespace {

std::string fmt(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}


// Tolerance for a metric: the most specific matching pattern (longest).
json tolerance_for(const json& tolerances, const std::string& metric) {
  json best = {{"rel", 0.01}, {"abs", 1e-9}};
  size_t best_len = 0;
  bool found = false;
  for (const auto& [pat, tol] : tolerances.items())
    if (glob_match(pat, metric) && (!found || pat.size() > best_len)) best = tol, best_len = pat.size(), found = true;
  return best;
}

// A tolerance object: {"abs": x, "rel": y}, both optional numbers >= 0.
bool tolerance_ok(const json& tol) {
  if (!tol.is_object()) return false;
  for (const char* k : {"abs", "rel"})
    if (tol.contains(k) && (!tol[k].is_number() || !(tol[k].get<double>() >= 0))) return false;
  return true;
}

}  // namespace

double allowed_deviation(const json& tol, double golden) {
  return std::max(tol.value("abs", 0.0), tol.value("rel", 0.0) * std::abs(golden));
}

Status compare_with_golden(const std::string& path, ScenarioResult& r) {
  std::ifstream f(path);
  if (!f) return Status::Error(Status::Code::kNotFound, path + ": golden missing (run with --update-golden after inspecting the result)");
  json g;
  try {
    g = json::parse(f);
  } catch (const std::exception&) {
    return Status::Error(Status::Code::kBadData, path + ": golden is not valid JSON");
  }
  return compare_with_golden_json(g, path, r);
}

Status compare_with_golden_json(const json& g, const std::string& path, ScenarioResult& r) {
  auto bad = [&](const std::string& what) { return Status::Error(Status::Code::kBadData, path + ": " + what); };
  if (!g.is_object()) return bad("golden is not a JSON object");
  if (g.contains("metrics") && !g["metrics"].is_object()) return bad("golden \"metrics\" is not an object");
  const json metrics = g.value("metrics", json::object());
  // Checked whole before any comparison: a malformed entry is a data error
  // naming the file, never a JSON exception.
  for (const auto& [name, entry] : metrics.items()) {
    if (!entry.is_object() || !entry.contains("value") || !entry["value"].is_number() ||
        !std::isfinite(entry["value"].get<double>()))
      return bad("golden metric '" + name + "' needs a finite number \"value\"");
    if (entry.contains("tolerance") && !tolerance_ok(entry["tolerance"]))
      return bad("golden metric '" + name + "': \"tolerance\" must be {\"abs\": x, \"rel\": y} with numbers >= 0");
  }
  for (const auto& [name, entry] : metrics.items()) {
    if (!r.metrics.contains(name)) {
      r.failures.push_back(name + ": in the golden but not measured");
      continue;
    }
    if (!r.metrics[name].is_number()) continue;
    const double actual = r.metrics[name];
    const double golden = entry["value"].get<double>();
    const json tol = entry.value("tolerance", json{{"rel", 0.01}});
    const double a = allowed_deviation(tol, golden);
    if (!std::isfinite(actual) || std::abs(actual - golden) > a)
      r.failures.push_back(name + ": golden " + fmt(golden) + ", actual " + fmt(actual) + ", tolerance ±" + fmt(a));
  }
  for (const auto& [name, v] : r.metrics.items())
    if (v.is_number() && !metrics.contains(name))
      r.failures.push_back(name + ": measured " + fmt(v) + " but not in the golden (inspect, then --update-golden)");
  return Status::Ok();
}

bool expectation_holds(const std::string& op, double v, double rhs, double within) {
  if (!std::isfinite(v) || !std::isfinite(rhs)) return false;  // NaN satisfies no law
  if (op == "<") return v < rhs;
  if (op == "<=") return v <= rhs;
  if (op == ">") return v > rhs;
  if (op == ">=") return v >= rhs;
  return std::abs(v - rhs) <= within;  // "=="
}

void check_expectations(const Scenario& s, ScenarioResult& r) {
  auto measured = [&](const std::string& m) { return r.metrics.contains(m) && r.metrics[m].is_number(); };
  for (const Expectation& e : s.expect) {
    const std::string rhs_text =
        e.other.empty() ? fmt(e.value) : (e.factor == 1 ? "" : fmt(e.factor) + " x ") + e.other;
    const std::string why = e.why.empty() ? "" : " (" + e.why + ")";
    if (!measured(e.metric) || (!e.other.empty() && !measured(e.other))) {
      r.failures.push_back(e.metric + ": expected " + e.op + " " + rhs_text + " but not measured" + why);
      continue;
    }
    const double v = r.metrics[e.metric];
    const double rhs = e.other.empty() ? e.value : e.factor * r.metrics[e.other].get<double>();
    if (!expectation_holds(e.op, v, rhs, e.within))
      r.failures.push_back(e.metric + ": " + fmt(v) + " violates " + e.op + " " + rhs_text +
                           (e.other.empty() ? "" : " = " + fmt(rhs)) +
                           (e.op == "==" ? " within " + fmt(e.within) : "") + why);
  }
}

Status write_golden(const std::string& path, const Scenario& s, const ScenarioResult& r,
                    std::vector<std::string>& diff) {
  json old_metrics = json::object();
  if (std::ifstream f(path); f) {
    try {
      const json old = json::parse(f);
      if (old.is_object() && old.contains("metrics") && old["metrics"].is_object()) old_metrics = old["metrics"];
    } catch (const std::exception&) {
    }
  }
  json g;
  g["scenario"] = s.name;
  g["tool_version"] = kToolVersion;
  g["parameters"] = s.raw;
  g["metrics"] = json::object();
  for (const auto& [name, v] : r.metrics.items()) {
    if (!v.is_number()) continue;
    const double value = v;
    g["metrics"][name] = {{"value", value}, {"tolerance", tolerance_for(s.tolerances, name)}};
    if (!old_metrics.contains(name)) {
      diff.push_back("+ " + name + " = " + fmt(value));
    } else {
      // A double default: value() converts to the default's type (NAN is a
      // float, which printed a phantom change on every update).
      const json& e = old_metrics[name];
      const double before = e.is_object() && e.contains("value") && e["value"].is_number()
                                ? e["value"].get<double>()
                                : std::numeric_limits<double>::quiet_NaN();
      // Compared as printed: the diff is for people, the gate compares exactly.
      if (fmt(before) != fmt(value)) diff.push_back("~ " + name + ": " + fmt(before) + " -> " + fmt(value));
    }
  }
  for (const auto& [name, v] : old_metrics.items())
    if (!g["metrics"].contains(name)) diff.push_back("- " + name);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  return rig::write_file_atomic(path, g.dump(2) + "\n");
}

bool glob_match(const std::string& pattern, const std::string& s, size_t i, size_t j) {
  if (i == pattern.size()) return j == s.size();
  if (pattern[i] == '*') {
    for (size_t k = j; k <= s.size(); ++k)
      if (glob_match(pattern, s, i + 1, k)) return true;
    return false;
  }
  return j < s.size() && pattern[i] == s[j] && glob_match(pattern, s, i + 1, j + 1);
}

}  // namespace harness
