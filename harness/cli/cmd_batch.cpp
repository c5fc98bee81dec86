// `harness batch DIR|LIST --out DIR [--jobs N] [--shard i/N] [--bake]`:
// `harness fix` over every character of a folder or list (issue 14). Each
// file runs in its own child process (this executable's `fix`), so a file
// that crashes, hangs or exhausts memory fails alone: it gets a result with
// its one-line reason and the batch goes on. Per file the output folder
// holds NAME.glb (the fixed character), NAME.report.json (the appendages
// report) and NAME.json (the result, written last and atomically: its
// presence marks the file done, so a rerun skips it). Shards partition the
// sorted file list, so a job array over --shard i/N does the batch on many
// machines and the union of their results equals a one-shot run.
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/cli/batch_inputs.h"
#include "harness/cli/command.h"
#include "rig/io/safe_write.h"

namespace harness {

namespace fs = std::filesystem;

namespace {

struct BatchOptions {
  std::string source, out, shard;
  int jobs = default_jobs();
  bool bake = false;
  bool strict = false;
  double timeout_s = 600;
  long memory_mb = 4096;
};

struct ChildOutcome {
  int exit_code = 0;        // the child's exit code, or -1
  std::string failure;      // set when the child did not exit normally
  std::string last_stderr;  // its last non-empty stderr line
};

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

std::string last_line(const std::string& path) {
  std::ifstream f(path);
  std::string line, last;
  for (int n = 0; std::getline(f, line) && n < 100000; ++n)
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (last.size() > 500) last = last.substr(0, 500) + "...";
  return last;
}

// Runs argv with stdout discarded and stderr into err_path, under an
// address-space limit, killed after timeout_s.
ChildOutcome run_child(const std::vector<std::string>& argv, const std::string& err_path, double timeout_s,
                       long memory_mb) {
  ChildOutcome o;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const rlim_t limit = static_cast<rlim_t>(memory_mb) << 20;
  const pid_t pid = fork();
  if (pid < 0) {
    o.exit_code = -1;
    o.failure = "could not start a process";
    return o;
  }
  if (pid == 0) {  // async-signal-safe calls only until exec
    const int null_fd = open("/dev/null", O_WRONLY);
    const int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (null_fd >= 0) dup2(null_fd, STDOUT_FILENO);
    if (err_fd >= 0) dup2(err_fd, STDERR_FILENO);
    const rlimit rl{limit, limit};
    setrlimit(RLIMIT_AS, &rl);
    execv(args[0], args.data());
    _exit(127);
  }
  const auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  bool timed_out = false;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0) {
      o.exit_code = -1;
      o.failure = "lost its process";
      return o;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  o.last_stderr = last_line(err_path);
  if (timed_out) {
    o.exit_code = -1;
    o.failure = "timed out after " + std::to_string(static_cast<long>(timeout_s)) + " s";
  } else if (WIFSIGNALED(status)) {
    o.exit_code = -1;
    o.failure = "crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
  } else {
    o.exit_code = WEXITSTATUS(status);
    if (o.exit_code == 127 && o.last_stderr.empty()) o.failure = "could not run " + argv[0];
  }
  return o;
}

// The counts a result keeps from the appendages report.
void summarise_report(const std::string& report_path, nlohmann::json& result) {
  std::ifstream f(report_path);
  const nlohmann::json rep = nlohmann::json::parse(f, nullptr, false);
  if (rep.is_discarded() || !rep.is_object()) return;
  std::map<std::string, int> classes;
  int chains = 0, rigid = 0;
  if (rep.contains("appendages") && rep["appendages"].is_array()) {
    for (const auto& a : rep["appendages"]) {
      if (!a.is_object()) continue;
      if (a.contains("class") && a["class"].is_string()) ++classes[a["class"].get<std::string>()];
      const std::string action = a.value("action", "");
      chains += action == "chain";
      rigid += action == "rigid";
    }
  }
  result["classes"] = classes;
  result["chains"] = chains;
  result["rigid"] = rigid;
  if (rep.contains("height")) result["height_m"] = rep["height"];
  if (rep.contains("tail_bones")) result["existing_tail_bones"] = rep["tail_bones"].size();
  if (rep.contains("refused") && rep["refused"].is_string()) result["reason"] = rep["refused"];
}

nlohmann::json process(const BatchInput& in, const BatchOptions& o, const std::string& exe) {
  const std::string glb = (fs::path(o.out) / (in.name + ".glb")).string();
  const std::string report = (fs::path(o.out) / (in.name + ".report.json")).string();
  const std::string err = (fs::path(o.out) / (in.name + ".stderr.tmp")).string();
  std::vector<std::string> argv = {exe, "fix", in.path, "--out", glb, "--report", report};
  if (o.bake) argv.push_back("--bake");
  const auto t0 = std::chrono::steady_clock::now();
  const ChildOutcome c = run_child(argv, err, o.timeout_s, o.memory_mb);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::error_code ec;
  fs::remove(err, ec);
  nlohmann::json r = {{"file", in.path}, {"name", in.name}, {"exit_code", c.exit_code}};
  if (!c.failure.empty() || c.exit_code != 0) {
    r["status"] = "failed";
    std::string reason = c.failure.empty() ? c.last_stderr : c.failure;
    if (reason.rfind("harness fix: ", 0) == 0) reason = reason.substr(13);
    r["reason"] = reason.empty() ? "exit " + std::to_string(c.exit_code) : reason;
    fs::remove(glb, ec);  // never a half-finished output next to a failure
    fs::remove(report, ec);
  } else {
    summarise_report(report, r);
    const bool changed = r.value("chains", 0) + r.value("rigid", 0) > 0;
    r["status"] = changed ? "fixed" : "unchanged";
    r["output"] = fs::path(glb).filename().string();
    r["report"] = fs::path(report).filename().string();
  }
  r["seconds"] = std::round(seconds * 1000.0) / 1000.0;
  return r;
}

// A result written by an earlier run: complete when it parses as a result.
bool read_done(const std::string& path, nlohmann::json& out) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream f(path);
  out = nlohmann::json::parse(f, nullptr, false);
  return !out.is_discarded() && out.is_object() && out.contains("status") && out.contains("file");
}

int run_batch(const BatchOptions& o) {
  std::vector<BatchInput> all;
  if (rig::Status s = list_batch_inputs(o.source, all); !s.ok()) {
    std::fprintf(stderr, "harness batch: %s\n", s.message.c_str());
    return kExitBadInput;
  }
  int shard = 0, shards = 1;
  if (!o.shard.empty()) {
    if (rig::Status s = parse_shard(o.shard, shard, shards); !s.ok()) {
      std::fprintf(stderr, "harness batch: %s\n", s.message.c_str());
      return kExitBadInput;
    }
  }
  const std::vector<BatchInput> mine = shard_of(all, shard, shards);
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (!fs::is_directory(o.out, ec)) {
    std::fprintf(stderr, "harness batch: --out %s: cannot create the folder\n", o.out.c_str());
    return kExitBadInput;
  }
  const std::string exe = self_executable();
  if (exe.empty()) {
    std::fprintf(stderr, "harness batch: cannot find this executable (/proc/self/exe)\n");
    return kExitBadInput;
  }

  std::vector<nlohmann::json> results(mine.size());
  std::vector<char> skipped(mine.size(), 0);
  for (size_t i = 0; i < mine.size(); ++i)
    skipped[i] = read_done((fs::path(o.out) / (mine[i].name + ".json")).string(), results[i]);
  const size_t to_run = mine.size() - static_cast<size_t>(std::count(skipped.begin(), skipped.end(), 1));
  std::string of_batch;
  if (shards > 1) of_batch = " (shard " + std::to_string(shard) + "/" + std::to_string(shards) + " of " +
                             std::to_string(all.size()) + ")";
  std::fprintf(stderr, "harness batch: %zu file%s%s, %zu already done, %zu to run on %d job%s\n", mine.size(),
               mine.size() == 1 ? "" : "s", of_batch.c_str(), mine.size() - to_run, to_run, o.jobs,
               o.jobs == 1 ? "" : "s");

  const bool tty = isatty(STDERR_FILENO);
  std::atomic<size_t> next{0};
  size_t finished = 0;
  std::mutex mu;
  int write_failures = 0;
  auto worker = [&] {
    for (size_t i = next++; i < mine.size(); i = next++) {
      if (skipped[i]) continue;
      nlohmann::json r = process(mine[i], o, exe);
      const std::string path = (fs::path(o.out) / (mine[i].name + ".json")).string();
      const rig::Status w = rig::write_file_atomic(path, r.dump(2) + "\n");
      std::lock_guard<std::mutex> lock(mu);
      if (!w.ok()) {
        ++write_failures;
        std::fprintf(stderr, "%sharness batch: %s\n", tty ? "\n" : "", w.message.c_str());
      }
      ++finished;
      const std::string status = r.value("status", "");
      std::string what = status;
      if (status == "failed") what += ": " + r.value("reason", "");
      else what += " (" + std::to_string(r.value("chains", 0)) + " chain, " + std::to_string(r.value("rigid", 0)) + " rigid)";
      if (status != "failed" && r.contains("reason")) what += ": " + r.value("reason", "");
      if (tty) {
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s", finished, to_run, mine[i].name.c_str(), what.c_str());
      } else {
        std::fprintf(stderr, "[%zu/%zu] %s: %s, %.1f s\n", finished, to_run, mine[i].name.c_str(), what.c_str(),
                     r.value("seconds", 0.0));
      }
      results[i] = std::move(r);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(o.jobs, static_cast<int>(std::max<size_t>(to_run, 1))); ++t)
    threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (tty && to_run > 0) std::fprintf(stderr, "\n");

  // Aggregate over this run's share (skipped files included).
  std::map<std::string, int> by_status, by_class;
  int chains = 0, rigid = 0;
  double seconds = 0;
  nlohmann::json failures = nlohmann::json::array();
  for (const auto& r : results) {
    ++by_status[r.value("status", "?")];
    chains += r.value("chains", 0);
    rigid += r.value("rigid", 0);
    seconds += r.value("seconds", 0.0);
    if (r.contains("classes") && r["classes"].is_object())
      for (const auto& [k, v] : r["classes"].items()) by_class[k] += v.is_number_integer() ? v.get<int>() : 0;
    if (r.value("status", "") == "failed")
      failures.push_back({{"file", r.value("file", "")}, {"reason", r.value("reason", "")}});
  }
  const nlohmann::json summary = {{"source", o.source},
                                  {"shard", {{"index", shard}, {"count", shards}}},
                                  {"files", mine.size()},
                                  {"ran", to_run},
                                  {"skipped_done", mine.size() - to_run},
                                  {"by_status", by_status},
                                  {"regions_by_class", by_class},
                                  {"chains", chains},
                                  {"rigid", rigid},
                                  {"failures", failures},
                                  {"seconds_total", std::round(seconds * 1000.0) / 1000.0}};
  const std::string summary_path =
      (fs::path(o.out) / (shards > 1 ? "batch.shard-" + std::to_string(shard) + "-of-" + std::to_string(shards) + ".json"
                                     : std::string("batch.json")))
          .string();
  if (rig::Status w = rig::write_file_atomic(summary_path, summary.dump(2) + "\n"); !w.ok()) {
    std::fprintf(stderr, "harness batch: %s\n", w.message.c_str());
    return kExitBadInput;
  }

  std::printf("%-12s %6s\n", "status", "files");
  for (const auto& [k, v] : by_status) std::printf("%-12s %6d\n", k.c_str(), v);
  std::printf("regions by class:");
  for (const auto& [k, v] : by_class) std::printf(" %s=%d", k.c_str(), v);
  std::printf("\nchains written %d, regions made rigid %d, %.1f s of fix in all (%.2f s per file)\n", chains, rigid,
              seconds, mine.empty() ? 0.0 : seconds / static_cast<double>(mine.size()));
  for (const auto& f : failures)
    std::printf("failed: %s: %s\n", f["file"].get<std::string>().c_str(), f["reason"].get<std::string>().c_str());
  std::printf("summary: %s\n", summary_path.c_str());
  if (write_failures > 0) return kExitBadInput;
  return o.strict && !failures.empty() ? kExitBadInput : kExitOk;
}

}  // namespace

Command add_batch_command(CLI::App& root) {
  auto opt = std::make_shared<BatchOptions>();
  Command c;
  c.app = root.add_subcommand("batch", "harness fix over every character of a folder or list, resumable and sharded");
  c.app->add_option("SOURCE", opt->source, "folder of characters (.glb .gltf .fbx .dae) or a list file, one path per line")
      ->required();
  c.app->add_option("--out", opt->out, "output folder: NAME.glb, NAME.report.json, NAME.json per file")->required();
  c.app->add_option("--jobs,-j", opt->jobs, "files fixed in parallel (default: one per core)")
      ->check(CLI::Range(1, 64));
  c.app->add_option("--shard", opt->shard, "i/N: only every N-th file from the i-th (0 <= i < N), for job arrays");
  c.app->add_flag("--bake", opt->bake, "bake the tail spring into every clip (harness fix --bake)");
  c.app->add_flag("--strict", opt->strict, "exit 2 when any file failed (default: 0 once every file has a result)");
  c.app->add_option("--timeout", opt->timeout_s, "seconds one file may take before it is stopped and failed")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  c.app->add_option("--memory-mb", opt->memory_mb, "address space one file's process may use")
      ->check(CLI::Range(256L, 1L << 20))
      ->capture_default_str();
  c.run = [opt] { return run_batch(*opt); };
  return c;
}

}  // namespace harness
