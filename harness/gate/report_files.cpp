#include "harness/gate/report_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "rig/io/safe_write.h"

namespace harness {

using nlohmann::json;

json row_json(const Row& r) {
  return {{"variant", r.variant},
          {"set", r.set},
          {"edges", r.edges},
          {"samples", r.stats.samples},
          {"p01", r.stats.p01},
          {"p25", r.stats.p25},
          {"p50", r.stats.p50},
          {"p75", r.stats.p75},
          {"p95", r.stats.p95},
          {"p99", r.stats.p99},
          {"max", r.stats.max},
          {"min", r.stats.min},
          {"torn_fraction", r.stats.torn_fraction},
          {"in_legs_fraction", r.in_legs_fraction},
          {"in_legs_max_rel_H", r.in_legs_max_rel_H},
          {"note", r.note}};
}

json result_json(const ScenarioResult& r) {
  json rows = json::array();
  for (const Row& row : r.rows) rows.push_back(row_json(row));
  return {{"name", r.name}, {"description", r.description}, {"pass", r.pass}, {"rows", rows},
          {"metrics", r.metrics}, {"failures", r.failures}, {"notes", r.notes}};
}

namespace {

bool is_lift_table(const std::string& key, const json& v) {
  const std::string suffix = "lift_table";
  return v.is_array() && key.size() >= suffix.size() &&
         key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A per-item table a runner returns as a metric: {"columns": [names],
// "rows": [[cells]]} with strings, numbers, booleans or null in the cells.
// "table" goes to NAME.csv when the scenario has no stretch rows; every
// "*_table" but lift tables is drawn in NAME.md.
bool is_item_table(const json& v) {
  return v.is_object() && v.contains("columns") && v["columns"].is_array() && v.contains("rows") &&
         v["rows"].is_array();
}

std::string item_cell(const json& x, bool csv) {
  if (x.is_null()) return csv ? "" : "–";
  if (x.is_boolean()) return x.get<bool>() ? "yes" : "no";
  if (x.is_number_integer()) return std::to_string(x.get<long>());
  if (x.is_number()) {
    char b[64];
    std::snprintf(b, sizeof b, csv ? "%.6g" : "%.3g", x.get<double>());
    return b;
  }
  std::string s = x.is_string() ? x.get<std::string>() : x.dump();
  if (csv && s.find_first_of(",\"\n") != std::string::npos) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  }
  if (!csv)
    for (char& c : s)
      if (c == '|') c = '/';
  return s;
}

// A penetration cell: percent, or "-" where it was not measured.
std::string percent_cell(double fraction) {
  if (fraction < 0.0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", 100.0 * fraction);
  return b;
}

std::string table_markdown(const ScenarioResult& r) {
  std::string s =
      "| variant | set | samples | p95 | p99 | max | torn | in legs > 1 % H | deepest in legs (% "
      "H) |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  char b[320];
  for (const Row& row : r.rows) {
    std::snprintf(b, sizeof b, "| %s | %s | %ld | %.2f | %.2f | %.2f | %.1f %% | %s | %s |\n",
                  row.variant.c_str(), row.set.c_str(), row.stats.samples, row.stats.p95,
                  row.stats.p99, row.stats.max, 100.0 * row.stats.torn_fraction,
                  percent_cell(row.in_legs_fraction).c_str(),
                  percent_cell(row.in_legs_max_rel_H).c_str());
    s += b;
  }
  return s;
}

}  // namespace

void print_table(const ScenarioResult& r, std::FILE* out) {
  std::fprintf(out, "%s: %s\n", r.name.c_str(), r.description.c_str());
  if (!r.rows.empty()) {
    // in legs: samples with tail skin deeper than 1 % of H in a leg; deep: the deepest, % of H.
    std::fprintf(out, "  %-10s %-5s %9s %7s %7s %7s %8s %8s %8s  %s\n", "variant", "set", "samples",
                 "p95", "p99", "max", "torn", "in legs", "deep %H", "note");
    for (const Row& row : r.rows)
      std::fprintf(out, "  %-10s %-5s %9ld %7.2f %7.2f %7.2f %7.1f%% %8s %8s  %s\n",
                   row.variant.c_str(), row.set.c_str(), row.stats.samples, row.stats.p95,
                   row.stats.p99, row.stats.max, 100.0 * row.stats.torn_fraction,
                   percent_cell(row.in_legs_fraction).c_str(),
                   percent_cell(row.in_legs_max_rel_H).c_str(), row.note.c_str());
  }
  for (const auto& [k, v] : r.metrics.items()) {
    if (v.is_number() && (k.find(".tail.") != std::string::npos || k.find(".body.") != std::string::npos)) continue;
    if (v.is_number()) std::fprintf(out, "  %-40s %.6g\n", k.c_str(), v.get<double>());
  }
  for (const auto& [k, v] : r.metrics.items()) {
    if (!is_lift_table(k, v)) continue;
    std::fprintf(out, "  %s: %8s %13s %13s %10s\n", k.c_str(), "time", "hips counted", "hips excluded", "extra");
    for (const auto& row : v)
      std::fprintf(out, "  %*s  %6.3f s %10.1f cm %10.1f cm %7.1f cm\n", static_cast<int>(k.size()), "",
                   row.value("time", 0.0), 100 * row.value("hips_tail_counted", 0.0),
                   100 * row.value("hips_tail_excluded", 0.0), 100 * row.value("extra_lift", 0.0));
  }
  for (const auto& n : r.notes) std::fprintf(out, "  note: %s\n", n.c_str());
  for (const auto& f : r.failures) std::fprintf(out, "  FAIL %s\n", f.c_str());
  std::fprintf(out, "  => %s\n", r.pass ? "pass" : "REGRESSION");
}

rig::Status write_report(const std::string& dir, const ScenarioResult& r) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path base = fs::path(dir) / r.name;
  std::ostringstream md, csv, js;
  md << "# " << r.name << "\n\n" << r.description << "\n\n";
  if (!r.rows.empty()) md << "Edge stretch (skinned / bind length); torn = ratio > 1.5 or < 0.67.\n\n" << table_markdown(r) << "\n";
  for (const auto& [k, v] : r.metrics.items()) {
    if (is_lift_table(k, v) || k.size() < 6 || k.compare(k.size() - 6, 6, "_table") != 0 || !is_item_table(v)) continue;
    const json& cols = v["columns"];
    md << "`" << k << "`:\n\n|";
    for (const auto& c : cols) md << " " << item_cell(c, false) << " |";
    md << "\n|";
    for (size_t i = 0; i < cols.size(); ++i) md << "---|";
    md << "\n";
    for (const auto& row : v["rows"]) {
      md << "|";
      for (const auto& x : row) md << " " << item_cell(x, false) << " |";
      md << "\n";
    }
    md << "\n";
  }
  md << "| metric | value |\n|---|---|\n";
  for (const auto& [k, v] : r.metrics.items())
    if (v.is_number()) md << "| " << k << " | " << v.dump() << " |\n";
  // Every lift table ("lift_table", "PREFIX.lift_table"), rounded for reading;
  // NAME.json keeps the full values.
  for (const auto& [k, v] : r.metrics.items()) {
    if (!is_lift_table(k, v)) continue;
    md << "\n" << (k == "lift_table" ? std::string("Lift table") : "Lift table `" + k + "`")
       << " (SPEC §5): final hips height with the tail counted / excluded in body grounding.\n\n"
       << "| time | hips, tail counted | hips, tail excluded | extra lift |\n|---|---|---|---|\n";
    char b[160];
    for (const auto& row : v) {
      std::snprintf(b, sizeof b, "| %.3f s | %.1f cm | %.1f cm | %.1f cm |\n", row.value("time", 0.0),
                    100 * row.value("hips_tail_counted", 0.0), 100 * row.value("hips_tail_excluded", 0.0),
                    100 * row.value("extra_lift", 0.0));
      md << b;
    }
  }
  md << "\nResult: " << (r.pass ? "pass" : "REGRESSION") << "\n";
  for (const auto& f : r.failures) md << "- FAIL " << f << "\n";
  if (r.rows.empty() && r.metrics.contains("table") && is_item_table(r.metrics["table"])) {
    const json& t = r.metrics["table"];
    for (size_t i = 0; i < t["columns"].size(); ++i) csv << (i ? "," : "") << item_cell(t["columns"][i], true);
    csv << "\n";
    for (const auto& row : t["rows"]) {
      for (size_t i = 0; i < row.size(); ++i) csv << (i ? "," : "") << item_cell(row[i], true);
      csv << "\n";
    }
  } else {
    csv << "variant,set,edges,samples,p01,p25,p50,p75,p95,p99,max,min,torn_fraction,in_legs_"
           "fraction,"
           "in_legs_max_rel_H\n";
  }
  for (const Row& row : r.rows)
    csv << row.variant << "," << row.set << "," << row.edges << "," << row.stats.samples << ","
        << row.stats.p01 << "," << row.stats.p25 << "," << row.stats.p50 << "," << row.stats.p75
        << "," << row.stats.p95 << "," << row.stats.p99 << "," << row.stats.max << ","
        << row.stats.min << "," << row.stats.torn_fraction << "," << row.in_legs_fraction << ","
        << row.in_legs_max_rel_H << "\n";
  json j = result_json(r);
  j["series"] = r.series;
  js << j.dump(1) << "\n";
  // Each file written whole or not at all (rig/safe_write.h).
  for (const auto& [ext, text] : {std::pair<const char*, std::string>{".md", md.str()}, {".csv", csv.str()},
                                  {".json", js.str()}})
    if (rig::Status st = rig::write_file_atomic(base.string() + ext, text); !st.ok()) return st;
  if (!r.contact.empty())
    if (rig::Status st = rig::write_file_atomic(base.string() + ".contact.json", r.contact.dump() + "\n"); !st.ok())
      return st;
  return rig::Status::Ok();
}

}  // namespace harness
