// `harness bench [--quick] [--check] [--out DIR] [--json F] [--no-plot]`:
// the fixed solver benchmark cases (bench_cases.h) on Google Benchmark,
// each target printed as measured / target / pass, results in
// DIR/bench.csv (default reports/) and a plot DIR/bench.png
// (scripts/plot_bench.py). A benchmark reports: exit 0 even when a target is
// missed, unless --check asks for exit 1 then. Timings are CPU time: on a
// shared machine wall time measures the neighbours.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "bench_cases.h"
#include "command.h"
#include "rig/safe_write.h"

namespace harness {
namespace {

struct Options {
  bool quick = false;
  bool check = false;
  bool no_plot = false;
  std::string out_dir = std::string(TAILRIG_SOURCE_DIR) + "/reports";
  std::string json_path;
  double min_time = 0.5;  // seconds per case
};

std::string first_line_of(const std::string& path, const std::string& prefix) {
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (prefix.empty() || line.rfind(prefix, 0) == 0) return line;
  return "";
}

// Machine and load, stated with every result (the bench runs on shared machines).
nlohmann::json machine_info() {
  nlohmann::json m;
  std::string cpu = first_line_of("/proc/cpuinfo", "model name");
  if (auto p = cpu.find(':'); p != std::string::npos) cpu = cpu.substr(p + 2);
  m["cpu"] = cpu;
  m["cores"] = std::thread::hardware_concurrency();
  m["loadavg"] = first_line_of("/proc/loadavg", "");
  m["avx2"] = static_cast<bool>(__builtin_cpu_supports("avx2"));
  return m;
}

std::string fmt(double v, int precision) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", precision, v);
  return b;
}

std::string csv(const std::vector<BenchResult>& rs) {
  std::ostringstream s;
  s << "case,solver,isa,bones,tails,iterations,cpu_ns_per_joint_step,real_ns_per_joint_step,cpu_ms_per_frame,"
       "target_ns_per_joint_step,target_ms_per_frame,pass,note\n";
  for (const BenchResult& r : rs) {
    s << r.c.name << ',' << r.c.solver << ',' << r.c.isa << ',' << r.c.bones << ',' << r.c.tails << ','
      << r.iterations << ',' << (r.ran ? fmt(r.cpu_ns_per_joint_step, 2) : "") << ','
      << (r.ran ? fmt(r.real_ns_per_joint_step, 2) : "") << ',' << (r.ran ? fmt(r.cpu_ms_per_frame, 4) : "") << ','
      << (r.c.target_ns > 0 ? fmt(r.c.target_ns, 0) : "") << ','
      << (r.c.target_frame_ms > 0 ? fmt(r.c.target_frame_ms, 0) : "") << ','
      << ((r.c.target_ns > 0 || r.c.target_frame_ms > 0) ? (r.pass() ? "yes" : "no") : "") << ',' << r.note << '\n';
  }
  return s.str();
}

nlohmann::json to_json(const std::vector<BenchResult>& rs, const Options& o) {
  nlohmann::json j;
  j["machine"] = machine_info();
  j["min_time_s"] = o.min_time;
  j["quick"] = o.quick;
  j["cases"] = nlohmann::json::array();
  for (const BenchResult& r : rs) {
    nlohmann::json c = {{"case", r.c.name}, {"solver", r.c.solver}, {"isa", r.c.isa}, {"bones", r.c.bones},
                        {"tails", r.c.tails}, {"ran", r.ran}, {"iterations", r.iterations}};
    if (r.ran) {
      c["cpu_ns_per_joint_step"] = r.cpu_ns_per_joint_step;
      c["real_ns_per_joint_step"] = r.real_ns_per_joint_step;
      c["cpu_ms_per_frame"] = r.cpu_ms_per_frame;
    }
    if (r.c.target_ns > 0) c["target_ns_per_joint_step"] = r.c.target_ns;
    if (r.c.target_frame_ms > 0) c["target_ms_per_frame"] = r.c.target_frame_ms;
    c["pass"] = r.pass();
    if (!r.note.empty()) c["note"] = r.note;
    j["cases"].push_back(c);
  }
  return j;
}

int run(const Options& o) {
  const nlohmann::json machine = machine_info();
  std::printf("harness bench: %s, %d cores, load average %s%s\n", machine["cpu"].get<std::string>().c_str(),
              machine["cores"].get<int>(), machine["loadavg"].get<std::string>().c_str(),
              o.quick ? " (quick: timings are not meaningful)" : "");
  const std::vector<BenchResult> results = run_bench_cases(bench_cases(machine["avx2"].get<bool>()), o.min_time);

  std::printf("\ntargets (CPU time; measured / target / pass):\n");
  int missed = 0;
  for (const BenchResult& r : results) {
    if (r.c.target_ns > 0) {
      std::printf("  %-26s %9s ns/joint-step / %4.0f / %s\n", r.c.name.c_str(),
                  r.ran ? fmt(r.cpu_ns_per_joint_step, 1).c_str() : "-", r.c.target_ns,
                  r.ran ? (r.cpu_ns_per_joint_step <= r.c.target_ns ? "pass" : "MISSED") : r.note.c_str());
    }
    if (r.c.target_frame_ms > 0) {
      std::printf("  %-26s %9s ms/frame      / %4.0f / %s\n", r.c.name.c_str(),
                  r.ran ? fmt(r.cpu_ms_per_frame, 3).c_str() : "-", r.c.target_frame_ms,
                  r.ran ? (r.cpu_ms_per_frame <= r.c.target_frame_ms ? "pass" : "MISSED") : r.note.c_str());
    }
    if (!r.pass()) ++missed;
  }
  std::printf("load average after: %s\n", first_line_of("/proc/loadavg", "").c_str());

  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  const std::string csv_path = o.out_dir + "/bench.csv";
  if (rig::Status s = rig::write_file_atomic(csv_path, csv(results)); !s.ok()) {
    std::fprintf(stderr, "harness bench: %s\n", s.message.c_str());
    return kExitBadInput;
  }
  std::printf("wrote %s\n", csv_path.c_str());
  if (!o.json_path.empty()) {
    if (rig::Status s = rig::write_file_atomic(o.json_path, to_json(results, o).dump(2) + "\n"); !s.ok()) {
      std::fprintf(stderr, "harness bench: %s\n", s.message.c_str());
      return kExitBadInput;
    }
    std::printf("wrote %s\n", o.json_path.c_str());
  }
  if (!o.no_plot) {
    // The plot is a convenience: without Python/matplotlib the CSV stands.
    const std::string cmd = "/usr/bin/python3 \"" + std::string(TAILRIG_SOURCE_DIR) + "/scripts/plot_bench.py\" \"" +
                            csv_path + "\" \"" + o.out_dir + "/bench.png\"";
    std::fflush(stdout);  // our lines before the script's
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "harness bench: plot not written (%s)\n", cmd.c_str());
  }
  if (missed > 0) std::printf("%d case(s) missed a target%s\n", missed, o.check ? "" : " (report only; --check fails)");
  return (o.check && missed > 0) ? kExitRegression : kExitOk;
}

}  // namespace

Command add_bench_command(CLI::App& root) {
  auto opt = std::make_shared<Options>();
  Command c;
  c.app = root.add_subcommand("bench",
                              "Solver benchmarks (Google Benchmark): scalar and batch ns per joint-step, 10k tails "
                              "per frame; measured / target / pass, reports/bench.csv and bench.png");
  c.app->add_flag("--quick", opt->quick, "tiny run to check that everything runs (timings not meaningful)");
  c.app->add_flag("--check", opt->check, "exit 1 when a target is missed (default: report only, exit 0)");
  c.app->add_option("--out", opt->out_dir, "directory for bench.csv and bench.png (default: reports/)");
  c.app->add_option("--json", opt->json_path, "also write the results and the machine as JSON");
  c.app->add_flag("--no-plot", opt->no_plot, "do not run scripts/plot_bench.py");
  c.app->add_option("--min-time", opt->min_time, "seconds per case (default 0.5)")->check(CLI::Range(0.001, 60.0));
  c.run = [opt] {
    Options o = *opt;
    if (o.quick) o.min_time = 0.001;
    return run(o);
  };
  return c;
}

}  // namespace harness
