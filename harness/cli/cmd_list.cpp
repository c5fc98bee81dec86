// `harness list`: every scenario with its one-line description and last result.
#include <cstdio>
#include <fstream>
#include <memory>

#include "harness/cli/command.h"
#include "harness/gate/paths.h"
#include "harness/gate/scenario.h"

namespace harness {

Command add_list_command(CLI::App& root) {
  auto dir = std::make_shared<std::string>(default_scenarios_dir());
  Command c;
  c.app = root.add_subcommand("list", "List scenarios with their description and last result");
  c.app->add_option("--scenarios", *dir, "Scenario directory")->capture_default_str();
  c.run = [dir] {
    std::vector<std::string> paths;
    if (rig::Status s = list_scenarios(*dir, paths); !s.ok()) {
      std::fprintf(stderr, "harness list: %s\n", s.message.c_str());
      return int(kExitBadInput);
    }
    nlohmann::json last = nlohmann::json::object();
    if (const std::string cache = last_results_path(); !cache.empty()) {
      if (std::ifstream f(cache); f) {
        try {
          last = nlohmann::json::parse(f);
        } catch (const std::exception&) {
        }
      }
      if (!last.is_object()) last = nlohmann::json::object();
    }
    int code = kExitOk;
    for (const auto& p : paths) {
      Scenario s;
      if (rig::Status st = load_scenario(p, s); !st.ok()) {
        std::fprintf(stderr, "harness list: %s\n", st.message.c_str());
        code = kExitBadInput;
        continue;
      }
      std::printf("%-28s %-11s %s\n", s.name.c_str(), last.value(s.name, "never run").c_str(), s.description.c_str());
    }
    return code;
  };
  return c;
}

}  // namespace harness
