// libFuzzer target: any bytes as a scenario file and as a golden file
// (load_scenario, compare_with_golden, write_golden to /dev/null). Errors are
// fine; exceptions, crashes and hangs are not.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "harness/gate/golden.h"
#include "harness/gate/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/tailrig_fuzz_" + std::to_string(::getpid()) + ".json";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  harness::Scenario s;
  if (harness::load_scenario(path, s).ok()) {
    harness::ScenarioResult r;
    r.metrics = {{"a", 1.0}, {"b.tail.p99", 2.5}};
    harness::check_expectations(s, r);
    std::vector<std::string> diff;
    (void)harness::write_golden("/dev/null", s, r, diff);
  }
  harness::ScenarioResult r;
  r.metrics = {{"a", 1.0}, {"x", 0.5}};
  (void)harness::compare_with_golden(path, r);
  return 0;
}
