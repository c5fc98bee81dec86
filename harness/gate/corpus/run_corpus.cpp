// The corpus runner (kind "corpus", issue 11): lists the characters folder
// and the fixture zoo, matches each with its manifest entry, runs the checks
// of run_corpus_checks.cpp / run_corpus_retarget.cpp as independent tasks on
// RunOptions::jobs threads (results merged in manifest order: the same bits
// for any thread count), then groups them into the named checks of issue 11.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <thread>

#include "fixtures/fixtures.h"
#include "harness/gate/fixture_cache.h"
#include "harness/gate/golden.h"
#include "rig/anatomy/roles.h"  // leg_count
#include "harness/gate/corpus/run_corpus.h"
#include "rig/io/io.h"

namespace harness::corpus {

namespace fs = std::filesystem;
using rig::Status;

namespace {

std::string fmt(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}


std::string check_line(const std::string& file, const Check& c) {
  const std::string want =
      c.op == "in" ? "in [" + fmt(c.expected) + ", " + fmt(c.expected_hi) + "]" : c.op + " " + fmt(c.expected);
  return file + ": " + c.id + ": expected " + want + ", actual " +
         (std::isfinite(c.actual) ? fmt(c.actual) : std::string("not measured")) +
         (c.detail.empty() ? "" : " (" + c.detail + ")");
}

// One loaded character with what its checks need.
struct Subject {
  const Entry* entry = nullptr;
  std::string path;  // file, or "fixture NAME"
  rig::Character character;
  fixtures::GroundTruth truth;
  std::vector<int> truth_tail;  // fixtures: vertices of appendages the truth says become a chain
  double truth_length = 0.0;
  RetargetTarget retarget;  // prepared once for its clips (retarget != "skip")
  std::string error;
};

Status load_subject(const std::string& dir, FixtureCache* cache, Subject& sub) {
  const Entry& e = *sub.entry;
  if (!e.file.empty()) {
    sub.path = dir + "/" + e.file;
    return load_cached(cache, sub.path, sub.character);
  }
  sub.path = "fixture " + e.fixture;
  fixtures::FixtureParams p = fixtures::default_params(e.fixture);
  if (Status st = apply_fixture_params(e.params, e.id, p); !st.ok()) return st;
  std::string error;
  if (!make_fixture_cached(cache, e.fixture, e.params.dump(), p, sub.character, &error, &sub.truth))
    return Status::Error(Status::Code::kBadData, e.id + ": " + error);
  for (const auto& a : sub.truth.appendages) {
    if (a.expected_action != "chain") continue;
    sub.truth_tail.insert(sub.truth_tail.end(), a.vertices.begin(), a.vertices.end());
    sub.truth_length = std::max(sub.truth_length, a.length);
  }
  std::sort(sub.truth_tail.begin(), sub.truth_tail.end());
  return Status::Ok();
}

void run_tasks(std::vector<std::function<void()>>& tasks, int jobs) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < tasks.size(); i = next++) tasks[i]();
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(jobs, static_cast<int>(tasks.size())); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

// Merges the parts of one file (roles, fix, strip, retarget per clip) in order.
void merge(FileResult& into, const FileResult& part) {
  into.checks.insert(into.checks.end(), part.checks.begin(), part.checks.end());
  into.notes.insert(into.notes.end(), part.notes.begin(), part.notes.end());
  into.metrics.update(part.metrics);
  for (const auto& [k, v] : part.row.items()) {
    if (k == "retarget" && into.row.contains("retarget")) into.row["retarget"].update(v);
    else into.row[k] = v;
  }
}

// The report tables ({"columns", "rows"}, see report.cpp): `table` one row
// per file with every column (CSV), `files_table` the per-file columns for
// reading, `retarget_table` one row per file and clip.
const char* const kFileColumns[] = {"file", "roles_ok", "legs", "arms", "hips_joint", "fix_chains", "fix_rigid",
                                    "fix_changed_vertices", "chains", "chain_parent", "iou", "length_ratio",
                                    "stretch_before_p99", "stretch_after_p99", "stretch_before_torn",
                                    "stretch_after_torn", "checks", "failed", "known_gaps"};
const char* const kRetargetColumns[] = {"refused", "feet", "legs_range_deg", "foot_err_m", "lowest_err_m",
                                        "body_torn", "artist_clip", "artist_clip_body_torn", "lift_m", "rigger_tail_vertices", "prop_vertices", "torn_on", "limbs_note",
                                        "reason"};
const char* const kExtraColumns[] = {"tags", "stretch_artist_p99", "tail_edges", "fix_regions", "strip_regions",
                                     "error"};

struct Tables {
  nlohmann::json table = {{"columns", nlohmann::json::array()}, {"rows", nlohmann::json::array()}};
  nlohmann::json files = {{"columns", nlohmann::json::array()}, {"rows", nlohmann::json::array()}};
  nlohmann::json retarget = {{"columns", nlohmann::json::array()}, {"rows", nlohmann::json::array()}};
  explicit Tables(const std::vector<ClipSource>& clips) {
    for (const char* c : kFileColumns) files["columns"].push_back(c), table["columns"].push_back(c);
    for (const char* c : kExtraColumns) table["columns"].push_back(c);
    for (const auto& clip : clips)
      for (const char* c : kRetargetColumns) table["columns"].push_back(clip.key + "." + c);
    retarget["columns"] = {"file", "clip"};
    for (const char* c : kRetargetColumns) retarget["columns"].push_back(c);
  }
  static nlohmann::json cell(const nlohmann::json& row, const std::string& k) {
    if (!row.contains(k)) return nullptr;
    const auto& v = row[k];
    if (v.is_number_float() && !std::isfinite(v.get<double>())) return nullptr;
    return v.is_array() ? nlohmann::json(v.dump()) : v;
  }
  void add(const nlohmann::json& row, const std::vector<ClipSource>& clips) {
    nlohmann::json full = nlohmann::json::array(), brief = nlohmann::json::array();
    for (const char* c : kFileColumns) brief.push_back(cell(row, c)), full.push_back(cell(row, c));
    for (const char* c : kExtraColumns) full.push_back(cell(row, c));
    for (const auto& clip : clips) {
      auto entry = [&](const std::string& key) {
        return row.contains("retarget") ? row["retarget"].value(key, nlohmann::json::object()) : nlohmann::json::object();
      };
      const nlohmann::json rt = entry(clip.key);
      for (const char* c : kRetargetColumns) full.push_back(cell(rt, c));
      // A character's own clip: copied as authored, then the pipeline on it.
      for (const std::string& key : {clip.key, clip.key + "_retargeted"}) {
        const nlohmann::json one = entry(key);
        if (one.empty()) continue;
        nlohmann::json line = {row.value("file", ""), key};
        for (const char* c : kRetargetColumns) line.push_back(cell(one, c));
        retarget["rows"].push_back(line);
      }
    }
    table["rows"].push_back(full);
    files["rows"].push_back(brief);
  }
};

bool has_tag(const Entry& e, const nlohmann::json& tags) {
  for (const auto& t : tags)
    if (std::find(e.tags.begin(), e.tags.end(), t.get<std::string>()) != e.tags.end()) return true;
  return false;
}

// The scenario's "clips", each loaded with its source's legs.
Status load_clips(const Scenario& s, std::vector<ClipSource>& clips) {
  for (const auto& c : s.raw.value("clips", nlohmann::json::array())) {
    ClipSource cs;
    try {
      cs.key = c.at("key").get<std::string>();
      cs.gait = c.value("gait", std::string());
      cs.torn_vs_own = c.value("body_torn_vs_own", 0.0);
      const nlohmann::json reported = c.value("reported", nlohmann::json::object());
      for (auto it = reported.begin(); it != reported.end(); ++it)
        cs.reported.emplace_back(it.key(), it.value().get<std::string>());
      if (!(cs.torn_vs_own >= 0.0 && cs.torn_vs_own <= 100.0))
        return Status::Error(Status::Code::kBadData, s.path + ": clips: body_torn_vs_own must be in [0, 100]");
      if (Status st = resolve_scenario_file(s, c.at("file").get<std::string>(), cs.file); !st.ok()) return st;
    } catch (const std::exception& ex) {
      return Status::Error(Status::Code::kBadData, s.path + ": clips: " + ex.what());
    }
    if (Status st = load_cached(s.fixtures, cs.file, cs.source); !st.ok()) return Status::Error(st.code, s.path + ": " + st.message);
    if (cs.source.clips.empty()) return Status::Error(Status::Code::kBadData, s.path + ": " + cs.file + ": no clip");
    if (const std::string name = c.value("clip", std::string()); !name.empty()) {
      cs.clip = -1;
      for (int i = 0; i < static_cast<int>(cs.source.clips.size()) && cs.clip < 0; ++i)
        if (cs.source.clips[i].name == name) cs.clip = i;
      if (cs.clip < 0)
        return Status::Error(Status::Code::kBadData, s.path + ": " + cs.file + ": no clip named '" + name + "'");
    }
    cs.legs = rig::leg_count(cs.source.skeleton);
    clips.push_back(std::move(cs));
  }
  return Status::Ok();
}

// Coverage: every file and every fixture has an entry, every entry a
// subject (failures in `out`); the subjects, in manifest order.
std::vector<Subject> covered_subjects(const std::vector<Entry>& entries, const std::vector<std::string>& files,
                                      const std::string& dir, const std::string& manifest_path,
                                      ScenarioResult& out) {
  for (const auto& f : files)
    if (std::none_of(entries.begin(), entries.end(), [&](const Entry& e) { return e.file == f; }))
      out.failures.push_back("corpus: " + f + " in " + dir + " has no manifest entry (add one to " + manifest_path + ")");
  for (const auto& fx : fixtures::list_fixtures())
    if (std::none_of(entries.begin(), entries.end(), [&](const Entry& e) { return e.fixture == fx.name; }))
      out.failures.push_back("corpus: fixture " + fx.name + " has no manifest entry (add one to " + manifest_path + ")");
  std::vector<Subject> subjects;
  for (const Entry& e : entries) {
    if (!e.file.empty() && std::find(files.begin(), files.end(), e.file) == files.end()) {
      out.failures.push_back("corpus: " + e.file + " is in the manifest but not in " + dir);
      continue;
    }
    if (!e.fixture.empty() && !fixtures::has_fixture(e.fixture)) {
      out.failures.push_back("corpus: fixture " + e.fixture + " is in the manifest but does not exist");
      continue;
    }
    subjects.emplace_back();
    subjects.back().entry = &e;
  }
  return subjects;
}

// Loads every subject (in parallel) and prepares its retarget target.
void load_subjects(const std::string& dir, double rate, int jobs, FixtureCache* cache, std::vector<Subject>& subjects) {
  std::vector<std::function<void()>> tasks;
  for (Subject& sub : subjects)
    tasks.push_back([&dir, &sub, rate, cache] {
      if (Status st = load_subject(dir, cache, sub); !st.ok()) sub.error = st.message;
      else if (!sub.character.has_skin()) sub.error = sub.path + ": no skinned mesh";
      else if (sub.entry->retarget != "skip") sub.retarget = prepare_corpus_target(sub.character, rate);
    });
  run_tasks(tasks, jobs);
}

// Runs every subject's checks (in parallel): per subject its parts (roles,
// fix, strip, then one per clip), empty when it could not be loaded.
std::vector<std::vector<FileResult>> run_checks(const std::vector<Subject>& subjects,
                                                const std::vector<ClipSource>& clips, int jobs) {
  std::vector<std::vector<FileResult>> parts(subjects.size());
  std::vector<std::function<void()>> tasks;
  for (size_t i = 0; i < subjects.size(); ++i) {
    const Subject& sub = subjects[i];
    const Entry& e = *sub.entry;
    if (!sub.error.empty()) continue;
    parts[i].resize(3 + clips.size());
    auto& p = parts[i];
    tasks.push_back([&sub, &e, &p] { check_roles(e, sub.character, p[0]); });
    tasks.push_back([&sub, &e, &p] {
      pipeline::FixOutcome fixed;
      const bool ok = check_fix_original(e, sub.character, sub.entry->fixture.empty() ? nullptr : &sub.truth_tail,
                                         sub.truth_length, p[1], fixed);
      if (e.tail != "rigger") check_written_weights(e, sub.character, ok ? &fixed : nullptr, p[1]);
    });
    if (e.tail == "bones") tasks.push_back([&sub, &e, &p] { check_strip_fix(e, sub.character, p[2]); });
    if (e.retarget != "skip")
      for (size_t c = 0; c < clips.size(); ++c)
        tasks.push_back([&sub, &e, &p, &clips, c] { check_retarget(e, sub.character, sub.retarget, clips[c], p[3 + c]); });
  }
  // Longest first would balance better, but the order of results never
  // depends on it: each task writes only its own slot.
  run_tasks(tasks, jobs);
  return parts;
}

// Counts over every file, for the scenario's metrics.
struct Tally {
  int failed_checks = 0, known_gaps = 0, pinned_checks = 0, pinned_files = 0, unpinned_files = 0;
};

// One file's result: its parts merged, its checks judged against the
// manifest's known gaps (failures and notes into `out`), its numbers into
// out.metrics when its entry is golden, its table row completed.
FileResult file_result(const Subject& sub, const std::vector<FileResult>& parts, Tally& tally, ScenarioResult& out) {
  FileResult fr;
  fr.id = sub.entry->id;
  if (!sub.error.empty()) {
    out.failures.push_back(fr.id + ": cannot be examined: " + sub.error);
    fr.error = sub.error;
  }
  for (const FileResult& part : parts) merge(fr, part);
  nlohmann::json row = {{"file", sub.entry->file.empty() ? "fixture:" + sub.entry->fixture : sub.entry->file},
                        {"tags", sub.entry->tags}};
  row.update(fr.row);
  fr.row = std::move(row);
  int failed = 0, gaps_here = 0;
  for (const Check& c : fr.checks) {
    // Only entries marked "golden" put their numbers in the metrics the
    // golden pins; a newly added character is checked (and in the tables)
    // until someone has inspected it and marked it.
    if (sub.entry->golden) {
      ++tally.pinned_checks;
      if (std::isfinite(c.actual)) out.metrics[fr.id + "." + c.id] = c.actual;
    }
    const auto gap = std::find_if(sub.entry->known_gaps.begin(), sub.entry->known_gaps.end(),
                                  [&](const auto& g) { return glob_match(g.first, c.id); });
    const bool known = gap != sub.entry->known_gaps.end();
    if (c.pass) {
      if (known) out.notes.push_back(fr.id + ": known gap now passes, remove it from the manifest: " + c.id);
      continue;
    }
    if (known) {
      ++tally.known_gaps, ++gaps_here;
      out.notes.push_back("known gap: " + check_line(fr.id, c) + " (" + gap->second + ")");
      continue;
    }
    ++failed;
    out.failures.push_back(check_line(fr.id, c));
  }
  for (const auto& [k, v] : fr.metrics.items())
    if (sub.entry->golden && v.is_number() && std::isfinite(v.get<double>())) out.metrics[fr.id + "." + k] = v;
  (sub.entry->golden ? tally.pinned_files : tally.unpinned_files)++;
  tally.failed_checks += failed;
  fr.row["checks"] = static_cast<int>(fr.checks.size());
  fr.row["failed"] = failed;
  fr.row["known_gaps"] = gaps_here;
  if (!fr.error.empty()) fr.row["error"] = fr.error;
  for (const auto& n : fr.notes) out.notes.push_back(fr.id + ": " + n);
  return fr;
}

// One named failure of issue 11 (an entry of the scenario's "issue_checks"):
// the checks selected by manifest tag and id, counted into out.metrics, a
// failure when none is selected or any fails outside the known gaps.
void check_issue(const nlohmann::json& ic, const std::vector<Subject>& subjects,
                 const std::vector<FileResult>& results, ScenarioResult& out) {
  const std::string name = ic.value("name", "");
  const auto tags = ic.value("tags", nlohmann::json::array());
  const auto pats = ic.value("checks", nlohmann::json::array());
  int n = 0, failed = 0, gaps_left = 0;
  std::string lines;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!has_tag(*subjects[i].entry, tags)) continue;
    for (const Check& c : results[i].checks) {
      if (std::none_of(pats.begin(), pats.end(), [&](const auto& p) { return glob_match(p.template get<std::string>(), c.id); }))
        continue;
      ++n;
      if (c.pass) continue;
      const auto& gaps = subjects[i].entry->known_gaps;
      if (std::any_of(gaps.begin(), gaps.end(), [&](const auto& g) { return glob_match(g.first, c.id); })) {
        ++gaps_left;
        continue;
      }
      ++failed;
      lines += "\n      " + check_line(results[i].id, c);
    }
  }
  out.metrics["issue." + name + ".checks"] = n;
  out.metrics["issue." + name + ".failed"] = failed;
  out.metrics["issue." + name + ".known_gaps"] = gaps_left;
  if (n == 0)
    out.failures.push_back("issue." + name + ": no check selected (tags " + tags.dump() + "): the check is vacuous");
  else if (failed)
    out.failures.push_back("issue." + name + " (" + ic.value("title", "") + "): " + std::to_string(failed) + " of " +
                           std::to_string(n) + " checks fail:" + lines);
}

}  // namespace

Status run(const Scenario& s, const RunOptions& o, ScenarioResult& out) {
  // Inputs: the manifest, the characters folder, the clips.
  std::string manifest_path;
  if (Status st = resolve_scenario_file(s, s.raw.value("manifest", "corpus/manifest.json"), manifest_path); !st.ok())
    return st;
  std::vector<Entry> entries;
  if (Status st = load_manifest(manifest_path, entries); !st.ok()) return st;
  std::string dir;
  std::vector<std::string> files;
  if (Status st = list_characters(s, s.raw.value("characters", "assets:characters"), dir, files); !st.ok()) return st;
  std::vector<ClipSource> clips;
  if (Status st = load_clips(s, clips); !st.ok()) return st;
  const double rate = s.raw.value("rate", 30.0);

  std::vector<Subject> subjects = covered_subjects(entries, files, dir, manifest_path, out);
  const int jobs = std::max(1, o.jobs);
  // Load every subject (in parallel), then run the checks (in parallel).
  load_subjects(dir, rate, jobs, s.fixtures, subjects);
  const std::vector<std::vector<FileResult>> parts = run_checks(subjects, clips, jobs);

  std::vector<FileResult> results;
  Tables tables(clips);
  Tally tally;
  for (size_t i = 0; i < subjects.size(); ++i) {
    results.push_back(file_result(subjects[i], parts[i], tally, out));
    tables.add(results.back().row, clips);
  }
  out.metrics["files"] = tally.pinned_files;
  out.metrics["checks"] = tally.pinned_checks;
  out.metrics["failed_checks"] = tally.failed_checks;  // over every entry, pinned or not
  out.metrics["known_gaps"] = tally.known_gaps;        // failing checks the manifest lists as known gaps
  if (tally.unpinned_files)
    out.notes.push_back(std::to_string(tally.unpinned_files) +
                        " manifest entries without \"golden\": true: checked, numbers not pinned by the golden");

  // The named failures of issue 11: checks selected by manifest tag and id.
  for (const auto& ic : s.raw.value("issue_checks", nlohmann::json::array())) check_issue(ic, subjects, results, out);
  out.metrics["table"] = tables.table;
  out.metrics["files_table"] = tables.files;
  if (!tables.retarget["rows"].empty()) out.metrics["retarget_table"] = tables.retarget;
  return Status::Ok();
}

}  // namespace harness::corpus

namespace harness {

rig::Status run_corpus(const Scenario& s, const RunOptions& o, ScenarioResult& out) { return corpus::run(s, o, out); }

}  // namespace harness
