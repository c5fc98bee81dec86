// `harness bench [--quick] [--check] [--filter TEXT] [--out DIR] [--json F] [--no-plot]`:
// the fixed solver benchmark cases (bench_cases.h) on Google Benchmark,
// each target printed as measured / target / pass, results in
// DIR/bench.csv (default reports/) and a plot DIR/bench.png
// (scripts/plot_bench.py). A benchmark reports: exit 0 even when a target is
// missed, unless --check asks for exit 1 then. Timings are CPU time: on a
// shared machine wall time measures the neighbours.
//
// The machine is stated with every result (CPU, family/model, ISA of the
// batch kernel, cores, clock where readable, allocator, load) and the
// reference kernel (bench_reference.h) is timed before and after the cases:
// each case is also given as a ratio to it (case ns per joint-step /
// reference ns per point-step), which holds from one machine of the kind to
// the next while the nanoseconds do not (issue 47).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "harness/cli/allocator.h"
#include "harness/bench/bench_cases.h"
#include "harness/bench/bench_detect.h"
#include "harness/bench/bench_reference.h"
#include "harness/cli/command.h"
#include "rig/io/safe_write.h"
#include "solver/batch.h"

namespace harness {
namespace {

struct Options {
  bool quick = false;
  bool check = false;
  bool no_plot = false;
  bool detect = false;  // the detection-at-scale cases instead of the solver's
  std::string out_dir = std::string(TAILRIG_SOURCE_DIR) + "/reports";
  std::string json_path;
  std::string filter;     // only cases whose name contains it (and those they are held to)
  double min_time = 0.5;  // seconds per case
};

std::string first_line_of(const std::string& path, const std::string& prefix) {
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (prefix.empty() || line.rfind(prefix, 0) == 0) return line;
  return "";
}

// The text after "key<tabs>: " in a /proc line ("" when none).
std::string value_of(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return "";
  const auto v = line.find_first_not_of(" \t", colon + 1);
  return v == std::string::npos ? "" : line.substr(v);
}

// The clock: cpufreq's current frequency where the kernel has it, else
// /proc/cpuinfo's "cpu MHz" (under a hypervisor the nominal clock: turbo and
// the host's load are not visible from inside).
void clock_info(nlohmann::json& m, bool virtualized) {
  const std::string khz = first_line_of("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "");
  if (!khz.empty()) {
    m["mhz"] = std::atof(khz.c_str()) / 1000.0;
    m["mhz_source"] = "cpufreq scaling_cur_freq";
    return;
  }
  const std::string mhz = value_of(first_line_of("/proc/cpuinfo", "cpu MHz"));
  if (mhz.empty()) {
    m["mhz"] = nullptr;
    m["mhz_source"] = "not readable";
    return;
  }
  m["mhz"] = std::atof(mhz.c_str());
  m["mhz_source"] = virtualized ? "/proc/cpuinfo, nominal under a hypervisor" : "/proc/cpuinfo";
}

// Machine and load, stated with every result (the bench runs on shared machines).
nlohmann::json machine_info() {
  nlohmann::json m;
  m["cpu"] = value_of(first_line_of("/proc/cpuinfo", "model name"));
  // "AMD EPYC" names several generations: family/model says which.
  m["cpu_family_model"] = "family " + value_of(first_line_of("/proc/cpuinfo", "cpu family")) + " model " +
                          value_of(first_line_of("/proc/cpuinfo", "model\t")) + " stepping " +
                          value_of(first_line_of("/proc/cpuinfo", "stepping"));
  const std::string flags = " " + value_of(first_line_of("/proc/cpuinfo", "flags")) + " ";
  const bool virtualized = flags.find(" hypervisor ") != std::string::npos;
  m["virtualized"] = virtualized;
  m["cores"] = std::thread::hardware_concurrency();
  clock_info(m, virtualized);
  m["loadavg"] = first_line_of("/proc/loadavg", "");
  m["avx2"] = static_cast<bool>(__builtin_cpu_supports("avx2"));
  m["avx512f"] = static_cast<bool>(__builtin_cpu_supports("avx512f"));
  m["batch_isa"] = solver::batch_isa_name(solver::best_batch_isa());
  m["allocator"] = allocator_description();
  return m;
}

// "AMD EPYC (family 25 model 17 stepping 1), 2 cores, 2596 MHz (...), batch
// kernel avx2, jemalloc 5.3.0 (thp always)".
std::string machine_line(const nlohmann::json& m) {
  std::string s = m["cpu"].get<std::string>() + " (" + m["cpu_family_model"].get<std::string>() + "), " +
                  std::to_string(m["cores"].get<int>()) + " cores, ";
  if (m["mhz"].is_number()) {
    char b[64];
    std::snprintf(b, sizeof b, "%.0f MHz", m["mhz"].get<double>());
    s += b;
  } else {
    s += "clock";
  }
  s += " (" + m["mhz_source"].get<std::string>() + "), batch kernel " + m["batch_isa"].get<std::string>();
  if (m["avx512f"].get<bool>() && m["batch_isa"] != "avx512") s += " (CPU has AVX-512F)";
  return s + ", " + m["allocator"].get<std::string>();
}

std::string fmt(double v, int precision) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", precision, v);
  return b;
}

// The reference kernel, timed before and after the cases; the ratios use
// the mean of the two (their spread says how steady the machine was).
struct Reference {
  ReferenceResult before, after;
  bool ran() const { return before.ran && after.ran; }
  double ns() const { return ran() ? 0.5 * (before.cpu_ns_per_point + after.cpu_ns_per_point) : 0.0; }
  // Case CPU ns per joint-step / reference CPU ns per point-step.
  double ratio(const BenchResult& r) const { return r.ran && ran() ? r.cpu_ns_per_joint_step / ns() : 0.0; }
};

std::string csv(const std::vector<BenchResult>& rs, const Reference& ref) {
  std::ostringstream s;
  s << "case,solver,isa,bones,tails,threads,iterations,cpu_ns_per_joint_step,real_ns_per_joint_step,cpu_ms_per_frame,"
       "thread_ms_per_frame,target_ns_per_joint_step,target_ms_per_frame,pass,note,reference_ns_per_point,"
       "ratio_to_reference,capsules_per_tail,relative_to,ratio_to_relative,target_ratio_to_relative\n";
  for (const BenchResult& r : rs) {
    const bool rated = r.ran && ref.ran();
    s << r.c.name << ',' << r.c.solver << ',' << r.c.isa << ',' << r.c.bones << ',' << r.c.tails << ','
      << r.c.threads << ',' << r.iterations << ',' << (r.ran ? fmt(r.cpu_ns_per_joint_step, 2) : "") << ','
      << (r.ran ? fmt(r.real_ns_per_joint_step, 2) : "") << ',' << (r.ran ? fmt(r.cpu_ms_per_frame, 4) : "") << ','
      << (r.ran ? fmt(r.thread_ms_per_frame, 4) : "") << ','
      << (r.c.target_ns > 0 ? fmt(r.c.target_ns, 0) : "") << ','
      << (r.c.target_frame_ms > 0 ? fmt(r.c.target_frame_ms, 1) : "") << ','
      << ((r.c.target_ns > 0 || r.c.target_frame_ms > 0 || r.c.target_ratio > 0) ? (r.pass() ? "yes" : "no") : "")
      << ',' << r.note << ',' << (ref.ran() ? fmt(ref.ns(), 3) : "") << ',' << (rated ? fmt(ref.ratio(r), 2) : "")
      << ',' << r.c.capsules << ',' << r.c.relative_to << ','
      << (r.ratio_to_relative > 0 ? fmt(r.ratio_to_relative, 3) : "") << ','
      << (r.c.target_ratio > 0 ? fmt(r.c.target_ratio, 2) : "") << '\n';
  }
  return s.str();
}

nlohmann::json reference_json(const ReferenceResult& r) {
  return {{"ran", r.ran},
          {"iterations", r.iterations},
          {"cpu_ns_per_point", r.cpu_ns_per_point},
          {"real_ns_per_point", r.real_ns_per_point}};
}

nlohmann::json to_json(const std::vector<BenchResult>& rs, const Reference& ref, const nlohmann::json& machine,
                       const Options& o) {
  nlohmann::json j;
  j["machine"] = machine;
  j["reference"] = {{"kernel", "SoA spring + rope step, 2-wide doubles, " + std::to_string(kReferencePoints) +
                                   " points (4.5 MB)"},
                    {"cpu_ns_per_point", ref.ns()},
                    {"before", reference_json(ref.before)},
                    {"after", reference_json(ref.after)}};
  j["min_time_s"] = o.min_time;
  j["quick"] = o.quick;
  j["cases"] = nlohmann::json::array();
  for (const BenchResult& r : rs) {
    nlohmann::json c = {{"case", r.c.name}, {"solver", r.c.solver}, {"isa", r.c.isa}, {"bones", r.c.bones},
                        {"tails", r.c.tails}, {"threads", r.c.threads}, {"ran", r.ran}, {"iterations", r.iterations}};
    if (r.ran) {
      c["cpu_ns_per_joint_step"] = r.cpu_ns_per_joint_step;
      c["real_ns_per_joint_step"] = r.real_ns_per_joint_step;
      c["cpu_ms_per_frame"] = r.cpu_ms_per_frame;
      c["thread_ms_per_frame"] = r.thread_ms_per_frame;
      if (ref.ran()) c["ratio_to_reference"] = ref.ratio(r);
    }
    if (r.c.target_ns > 0) c["target_ns_per_joint_step"] = r.c.target_ns;
    if (r.c.target_frame_ms > 0) c["target_ms_per_frame"] = r.c.target_frame_ms;
    if (r.c.capsules > 0) c["capsules_per_tail"] = r.c.capsules;
    if (r.c.target_ratio > 0) {
      c["relative_to"] = r.c.relative_to;
      c["target_ratio_to_relative"] = r.c.target_ratio;
      if (r.ratio_to_relative > 0) c["ratio_to_relative"] = r.ratio_to_relative;
    }
    c["pass"] = r.pass();
    if (!r.note.empty()) c["note"] = r.note;
    j["cases"].push_back(c);
  }
  return j;
}

// Writes `text` to `path` atomically and says so; false (one line on stderr)
// when the write fails.
bool write_result(const std::string& path, const std::string& text) {
  if (rig::Status s = rig::write_file_atomic(path, text); !s.ok()) {
    std::fprintf(stderr, "harness bench: %s\n", s.message.c_str());
    return false;
  }
  std::printf("wrote %s\n", path.c_str());
  return true;
}

std::string detect_csv(const std::vector<DetectBenchResult>& rs) {
  std::ostringstream s;
  s << "case,density,vertices,triangles,iterations,load_cpu_s,fix_cpu_s,save_cpu_s,total_cpu_s,command_cpu_s,"
       "fix_over_load,chains,error\n";
  for (const DetectBenchResult& r : rs) {
    const bool ok = r.error.empty();
    s << r.c.name << ',' << fmt(r.c.density, 2) << ',' << r.vertices << ',' << r.triangles << ',' << r.iterations
      << ',' << (ok ? fmt(r.load_s, 4) : "") << ',' << (ok ? fmt(r.fix_s, 4) : "") << ','
      << (ok ? fmt(r.save_s, 4) : "") << ',' << (ok ? fmt(r.total_s(), 4) : "") << ','
      << (ok ? fmt(r.command_s, 4) : "") << ','
      << (ok && r.load_s > 0 ? fmt(r.fix_s / r.load_s, 3) : "") << ',' << r.chains << ',' << r.error << '\n';
  }
  return s.str();
}

struct DetectTarget {
  std::string name, unit;
  double measured = 0.0, target = 0.0;
  bool ran = false;
  bool pass() const { return ran && measured <= target; }
};

// The issue-14 targets, read off the largest case of at least 1 M vertices.
std::vector<DetectTarget> detect_targets(const std::vector<DetectBenchResult>& rs) {
  const DetectBenchResult* big = nullptr;
  for (const DetectBenchResult& r : rs)
    if (r.error.empty() && r.vertices >= 1000000 && (!big || r.vertices > big->vertices)) big = &r;
  std::vector<DetectTarget> t;
  t.push_back({"harness fix command at 1M", "s CPU", big ? big->command_s : 0.0, kFixTargetSeconds, big != nullptr});
  t.push_back({"detect / load at 1M", "x", big && big->load_s > 0 ? big->fix_s / big->load_s : 0.0,
               kDetectOverLoadTarget, big != nullptr});
  const double e = growth_exponent(rs);
  t.push_back({"growth exponent 10k..1M (warm)", "", e, kNLogNExponent, big != nullptr && e > 0});
  return t;
}

int run_detect(const Options& o, const nlohmann::json& machine) {
  const std::string work = o.out_dir + "/.bench_detect_work";
  const std::vector<DetectBenchResult> results = run_detect_bench(detect_bench_cases(o.quick), work, o.min_time);
  std::error_code ec;
  std::filesystem::remove_all(work, ec);
  std::printf("\ntargets (CPU time; measured / target / pass):\n");
  int missed = 0;
  const std::vector<DetectTarget> targets = detect_targets(results);
  for (const DetectTarget& t : targets) {
    std::printf("  %-30s %9s %-5s / %5.3f / %s\n", t.name.c_str(), t.ran ? fmt(t.measured, 3).c_str() : "-",
                t.unit.c_str(), t.target, t.ran ? (t.pass() ? "pass" : "MISSED") : "not measured (no 1M case)");
    if (t.ran && !t.pass()) ++missed;
  }
  for (const DetectBenchResult& r : results) missed += r.error.empty() ? 0 : 1;
  std::printf("load average after: %s\n", first_line_of("/proc/loadavg", "").c_str());
  const std::string csv_path = o.out_dir + "/bench_detect.csv";
  if (!write_result(csv_path, detect_csv(results))) return kExitBadInput;
  if (!o.json_path.empty()) {
    nlohmann::json j;
    j["machine"] = machine;
    j["min_time_s"] = o.min_time;
    j["quick"] = o.quick;
    j["growth_exponent"] = growth_exponent(results);
    j["cases"] = nlohmann::json::array();
    for (const DetectBenchResult& r : results) {
      nlohmann::json c = {{"case", r.c.name}, {"density", r.c.density}, {"vertices", r.vertices},
                          {"triangles", r.triangles}, {"iterations", r.iterations}, {"chains", r.chains}};
      if (r.error.empty()) {
        c["load_cpu_s"] = r.load_s;
        c["fix_cpu_s"] = r.fix_s;
        c["save_cpu_s"] = r.save_s;
        c["total_cpu_s"] = r.total_s();
        c["command_cpu_s"] = r.command_s;
      } else {
        c["error"] = r.error;
      }
      j["cases"].push_back(c);
    }
    j["targets"] = nlohmann::json::array();
    for (const DetectTarget& t : targets)
      j["targets"].push_back({{"name", t.name}, {"measured", t.measured}, {"target", t.target}, {"ran", t.ran},
                              {"pass", t.pass()}});
    if (!write_result(o.json_path, j.dump(2) + "\n")) return kExitBadInput;
  }
  if (!o.no_plot) {
    const std::string cmd = "/usr/bin/python3 \"" + std::string(TAILRIG_SOURCE_DIR) + "/scripts/plot_bench_detect.py\" \"" +
                            csv_path + "\" \"" + o.out_dir + "/bench_detect.png\"";
    std::fflush(stdout);
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "harness bench: plot not written (%s)\n", cmd.c_str());
  }
  if (missed > 0) std::printf("%d target(s) missed or case(s) failed%s\n", missed, o.check ? "" : " (report only; --check fails)");
  return (o.check && missed > 0) ? kExitRegression : kExitOk;
}

// The cases whose name contains `filter` (every case when empty), with the
// cases they are held relative to, in report order.
std::vector<BenchCase> cases_matching(const std::vector<BenchCase>& all, const std::string& filter) {
  std::vector<bool> keep(all.size(), false);
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].name.find(filter) == std::string::npos) continue;
    keep[i] = true;
    for (size_t j = 0; j < all.size(); ++j)
      if (all[j].name == all[i].relative_to) keep[j] = true;
  }
  std::vector<BenchCase> kept;
  for (size_t i = 0; i < all.size(); ++i)
    if (keep[i]) kept.push_back(all[i]);
  return kept;
}

// Times the reference kernel and says so.
ReferenceResult time_reference(const Options& o, const char* when) {
  const ReferenceResult r = run_reference_kernel(o.min_time);
  std::printf("  %-26s %10.3f ns/point-step CPU  (%s the cases, %lld passes)\n", "reference kernel",
              r.cpu_ns_per_point, when, r.iterations);
  std::fflush(stdout);
  return r;
}

int run(const Options& o) {
  const nlohmann::json machine = machine_info();
  std::printf("harness bench: %s, load average %s%s\n", machine_line(machine).c_str(),
              machine["loadavg"].get<std::string>().c_str(), o.quick ? " (quick: timings are not meaningful)" : "");
  if (o.detect) {
    std::error_code ec;
    std::filesystem::create_directories(o.out_dir, ec);
    return run_detect(o, machine);
  }
  Reference ref;
  ref.before = time_reference(o, "before");
  const std::vector<BenchCase> cases = cases_matching(bench_cases(solver::best_batch_isa()), o.filter);
  if (cases.empty()) {
    std::fprintf(stderr, "harness bench: no case name contains '%s'\n", o.filter.c_str());
    return kExitBadInput;
  }
  const std::vector<BenchResult> results = run_bench_cases(cases, o.min_time);
  ref.after = time_reference(o, "after");

  std::printf("\nreference kernel: %.3f ns per point-step CPU (before %.3f, after %.3f)\n", ref.ns(),
              ref.before.cpu_ns_per_point, ref.after.cpu_ns_per_point);
  std::printf("cases (CPU time; measured / target / pass; ratio = case ns / reference ns):\n");
  int missed = 0;
  for (const BenchResult& r : results) {
    const std::string ratio = r.ran && ref.ran() ? fmt(ref.ratio(r), 1) : "-";
    const std::string status = !r.ran ? r.note : r.c.target_ns <= 0 ? "-" : r.cpu_ns_per_joint_step <= r.c.target_ns ? "pass" : "MISSED";
    std::printf("  %-26s %9s ns/joint-step / %4s / %-6s  ratio %6s\n", r.c.name.c_str(),
                r.ran ? fmt(r.cpu_ns_per_joint_step, 1).c_str() : "-",
                r.c.target_ns > 0 ? fmt(r.c.target_ns, 0).c_str() : "-", status.c_str(), ratio.c_str());
    if (r.c.target_frame_ms > 0) {
      const std::string unit = r.c.threads > 1 ? "ms/frame, busiest of " + std::to_string(r.c.threads) + " threads"
                                               : "ms/frame";
      std::printf("  %-26s %9s %-13s / %4.1f / %s\n", r.c.name.c_str(),
                  r.ran ? fmt(r.thread_ms_per_frame, 3).c_str() : "-", unit.c_str(), r.c.target_frame_ms,
                  r.ran ? (r.thread_ms_per_frame <= r.c.target_frame_ms ? "pass" : "MISSED") : r.note.c_str());
    }
    if (r.c.target_ratio > 0) {
      const std::string unit = "x " + r.c.relative_to;
      std::printf("  %-26s %9s %-13s / %4.2f / %s\n", r.c.name.c_str(),
                  r.ratio_to_relative > 0 ? fmt(r.ratio_to_relative, 2).c_str() : "-", unit.c_str(),
                  r.c.target_ratio,
                  r.ratio_to_relative > 0 ? (r.ratio_to_relative <= r.c.target_ratio ? "pass" : "MISSED")
                                          : "not measured");
    }
    if (!r.pass()) ++missed;
  }
  std::printf("load average after: %s\n", first_line_of("/proc/loadavg", "").c_str());

  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  const std::string csv_path = o.out_dir + "/bench.csv";
  if (!write_result(csv_path, csv(results, ref))) return kExitBadInput;
  if (!o.json_path.empty()) {
    if (!write_result(o.json_path, to_json(results, ref, machine, o).dump(2) + "\n")) return kExitBadInput;
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
                              "per frame, 100k tails on 2 threads; measured / target / pass and the ratio to a "
                              "reference kernel timed in the same run; reports/bench.csv and bench.png");
  c.app->add_flag("--quick", opt->quick, "tiny run to check that everything runs (timings not meaningful)");
  c.app->add_flag("--check", opt->check, "exit 1 when a target is missed (default: report only, exit 0)");
  c.app->add_option("--out", opt->out_dir, "directory for bench.csv and bench.png (default: reports/)");
  c.app->add_option("--json", opt->json_path, "also write the results and the machine as JSON");
  c.app->add_flag("--no-plot", opt->no_plot, "do not run scripts/plot_bench.py");
  c.app->add_flag("--detect", opt->detect,
                  "detection at scale instead: fix's load / detect / save CPU seconds on the fox fixture from 10 k "
                  "to 1 M vertices, growth exponent; DIR/bench_detect.csv and .png");
  c.app->add_option("--filter", opt->filter,
                    "only the cases whose name contains this text (and the cases they are held relative to); "
                    "e.g. --filter +4caps");
  c.app->add_option("--min-time", opt->min_time, "seconds per case (default 0.5)")->check(CLI::Range(0.001, 60.0));
  c.run = [opt] {
    Options o = *opt;
    if (o.quick) o.min_time = 0.001;
    return run(o);
  };
  return c;
}

}  // namespace harness
