// `harness run NAME... | --all`: run scenarios, compare with goldens, print
// the tables, write JSON and reports. Exit 0 pass, 1 regression, 2 bad input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "harness/cli/command.h"
#include "harness/gate/fixture_cache.h"
#include "harness/gate/golden.h"
#include "harness/gate/paths.h"
#include "harness/gate/report_files.h"
#include "harness/gate/report_viewer.h"
#include "rig/io/safe_write.h"
#include "harness/gate/runners.h"
#include "harness/gate/version.h"

namespace harness {

namespace {

struct Options {
  std::vector<std::string> names;
  bool all = false;
  std::string scenarios = default_scenarios_dir();
  std::string golden = default_golden_dir();
  std::string json_path;
  std::string report_dir;
  bool update_golden = false;
  // One scenario per core by default: results never depend on the count.
  int jobs = default_jobs();
  std::string solver = "scalar";  // or "batch": solver_* scenarios on solver::Batch
};

struct Outcome {
  ScenarioResult result;
  rig::Status status;  // data error, if any
  double seconds = 0;
};

// A cache for `harness list` in the user's cache folder (never the source
// tree): a failure to write it is no failure of the run.
void update_last_results(const std::vector<Outcome>& outcomes) {
  const std::string path = last_results_path();
  if (path.empty()) return;
  nlohmann::json last = nlohmann::json::object();
  if (std::ifstream f(path); f) {
    try {
      last = nlohmann::json::parse(f);
    } catch (const std::exception&) {
    }
  }
  if (!last.is_object()) last = nlohmann::json::object();
  for (const auto& o : outcomes)
    last[o.result.name] = !o.status.ok() ? "error" : o.result.pass ? "pass" : "regression";
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  (void)rig::write_file_atomic(path, last.dump(2) + "\n");
}

// --solver batch: the batch steps float lanes, and a few expectations are
// set at double precision (a radial velocity <= 1e-9 m/s). The scenario's
// "batch_expect" entries ({metric, op, value, why}) replace its expectations
// of the same metric for the batch run; every other expectation stands.
Scenario with_batch_expectations(const Scenario& s) {
  Scenario b = s;
  for (const Expectation& x : s.batch_expect) {
    auto same = [&](const Expectation& y) { return y.metric == x.metric; };
    b.expect.erase(std::remove_if(b.expect.begin(), b.expect.end(), same), b.expect.end());
    b.expect.push_back(x);
  }
  return b;
}

int run(const Options& o) {
  std::vector<std::string> paths;
  if (o.all) {
    if (rig::Status s = list_scenarios(o.scenarios, paths); !s.ok()) {
      std::fprintf(stderr, "harness run: %s\n", s.message.c_str());
      return kExitBadInput;
    }
  } else {
    for (const auto& n : o.names) paths.push_back(o.scenarios + "/" + n + ".json");
  }
  if (paths.empty()) {
    std::fprintf(stderr, "harness run: no scenario named (give NAME... or --all)\n");
    return kExitBadInput;
  }
  std::vector<Scenario> scenarios(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!std::filesystem::exists(paths[i])) {
      std::fprintf(stderr, "harness run: no scenario '%s' in %s (see harness list)\n",
                   std::filesystem::path(paths[i]).stem().c_str(), o.scenarios.c_str());
      return kExitBadInput;
    }
    if (rig::Status s = load_scenario(paths[i], scenarios[i]); !s.ok()) {
      std::fprintf(stderr, "harness run: %s\n", s.message.c_str());
      return kExitBadInput;
    }
  }
  RunOptions ro;
  ro.contact_sheet = !o.report_dir.empty();
  ro.jobs = o.jobs;
  ro.batch_solver = o.solver == "batch";
  if (ro.batch_solver && o.update_golden) {
    std::fprintf(stderr, "harness run: --update-golden pins the scalar reference; not with --solver batch\n");
    return kExitBadInput;
  }
  // Every fixture a scenario names built once for the run (fixture_cache.h).
  FixtureCache fixtures;
  for (Scenario& s : scenarios) s.fixtures = &fixtures;
  std::vector<Outcome> outcomes(scenarios.size());
  // Dispatch order only (outcomes stay in name order): the costliest first
  // (a scenario's "cost": its CPU seconds, as ctest's COST), so that the
  // jobs finish together rather than one left running a long scenario
  // picked up last; equal costs in name order.
  std::vector<size_t> order(scenarios.size());
  std::vector<double> cost(scenarios.size());
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    const nlohmann::json& raw = scenarios[i].raw;
    const auto c = raw.is_object() ? raw.find("cost") : raw.end();
    cost[i] = c != raw.end() && c->is_number() && std::isfinite(c->get<double>()) ? c->get<double>() : 0.0;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k = next++; k < scenarios.size(); k = next++) {
      const size_t i = order[k];
      const auto t0 = std::chrono::steady_clock::now();
      std::fprintf(stderr, "[%zu/%zu] %s ...\n", i + 1, scenarios.size(), scenarios[i].name.c_str());
      Outcome& out = outcomes[i];
      // Nothing may escape a worker thread (std::terminate): a runner's
      // exception is this scenario's data error.
      try {
        out.status = run_scenario(scenarios[i], ro, out.result);
      } catch (const ScenarioRegression& e) {
        // The product failed on valid input: this scenario regressed. Its
        // metrics stop where it failed; the golden comparison lists the rest.
        out.status = rig::Status::Ok();
        out.result.name = scenarios[i].name;
        out.result.failures.push_back(std::string("regression: ") + e.what());
      } catch (const std::exception& e) {
        out.status = rig::Status::Error(rig::Status::Code::kBadData, scenarios[i].path + ": " + e.what());
      } catch (...) {
        out.status = rig::Status::Error(rig::Status::Code::kBadData, scenarios[i].path + ": unexpected error");
      }
      out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "[%zu/%zu] %s done in %.1f s\n", i + 1, scenarios.size(), scenarios[i].name.c_str(),
                   out.seconds);
    }
  };
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(scenarios.size())));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  int code = kExitOk;
  nlohmann::json doc = {{"tool_version", kToolVersion}, {"scenarios", nlohmann::json::array()}};
  for (size_t i = 0; i < scenarios.size(); ++i) {
    Outcome& out = outcomes[i];
    const Scenario& s = scenarios[i];
    if (!out.status.ok()) {
      std::fprintf(stderr, "harness run: %s\n", out.status.message.c_str());
      code = kExitBadInput;
      continue;
    }
    ScenarioResult& r = out.result;
    if (ro.batch_solver && s.kind.rfind("solver_", 0) == 0) {
      check_expectations(with_batch_expectations(s), r);
    } else {
      check_expectations(s, r);
    }
    const std::string golden_path = o.golden + "/" + s.name + ".json";
    if (o.update_golden) {
      std::vector<std::string> diff;
      if (!r.failures.empty()) {
        std::fprintf(stderr, "harness run: %s: not updating the golden while invariants fail\n", s.name.c_str());
        for (const auto& f : r.failures) std::fprintf(stderr, "  FAIL %s\n", f.c_str());
        code = std::max(code, int(kExitRegression));
        continue;
      }
      if (rig::Status st = write_golden(golden_path, s, r, diff); !st.ok()) {
        std::fprintf(stderr, "harness run: %s\n", st.message.c_str());
        code = kExitBadInput;
        continue;
      }
      std::printf("%s: golden %s (%zu change%s)\n", s.name.c_str(), golden_path.c_str(), diff.size(),
                  diff.size() == 1 ? "" : "s");
      for (const auto& d : diff) std::printf("  %s\n", d.c_str());
    } else if (ro.batch_solver && s.kind.rfind("solver_", 0) == 0) {
      // Goldens pin the scalar reference; the batch must meet the expectations.
      std::printf("%s: batch solver: expectations only (goldens pin the scalar reference)\n", s.name.c_str());
    } else if (rig::Status st = compare_with_golden(golden_path, r); !st.ok()) {
      std::fprintf(stderr, "harness run: %s\n", st.message.c_str());
      code = kExitBadInput;
      r.failures.push_back(st.message);
    }
    r.pass = r.failures.empty();
    print_table(r, stdout);
    if (!r.pass) code = std::max(code, int(kExitRegression));
    if (!o.report_dir.empty())
      if (rig::Status st = write_report(o.report_dir, r); !st.ok()) {
        std::fprintf(stderr, "harness run: %s\n", st.message.c_str());
        code = kExitBadInput;
      }
    doc["scenarios"].push_back(result_json(r));
  }
  if (!o.report_dir.empty()) {
    std::string note;
    if (rig::Status st = write_viewer(o.report_dir, scenarios, doc, note); !st.ok()) {
      std::fprintf(stderr, "harness run: viewer: %s\n", st.message.c_str());
      code = kExitBadInput;
    } else if (!note.empty()) {
      std::fprintf(stderr, "harness run: %s\n", note.c_str());
    }
  }
  if (!o.json_path.empty()) {
    if (rig::Status st = rig::write_file_atomic(o.json_path, doc.dump(2) + "\n"); !st.ok()) {
      std::fprintf(stderr, "harness run: %s\n", st.message.c_str());
      return kExitBadInput;
    }
  }
  if (!ro.batch_solver) update_last_results(outcomes);
  return code;
}

}  // namespace

Command add_run_command(CLI::App& root) {
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("run", "Run scenarios and compare them with their goldens (exit 0 pass, 1 regression, 2 bad input)");
  c.app->add_option("NAME", opt->names, "Scenario names (files scenarios/NAME.json)");
  c.app->add_flag("--all", opt->all, "Run every scenario");
  c.app->add_option("--scenarios", opt->scenarios, "Scenario directory")->capture_default_str();
  c.app->add_option("--golden", opt->golden, "Golden directory")->capture_default_str();
  c.app->add_option("--json", opt->json_path, "Write the machine-readable result here");
  c.app->add_option("--report", opt->report_dir, "Write Markdown, CSV and JSON reports (and plot data) here, and viewer.html (web/ built)");
  c.app->add_flag("--update-golden", opt->update_golden, "Rewrite the goldens from this run and show the diff");
  c.app->add_option("--jobs,-j", opt->jobs, "Scenarios run in parallel (default: one per core)")->check(CLI::Range(1, 64));
  c.app->add_option("--solver", opt->solver,
                    "solver_* scenarios on the scalar reference (default) or on solver::Batch (expectations "
                    "only; goldens pin the scalar)")
      ->check(CLI::IsMember({"scalar", "batch"}));
  c.run = [opt] { return run(*opt); };
  return c;
}

}  // namespace harness
