// `harness`: reads rigs, runs scenarios, compares with goldens, writes reports.
#include <cstdio>
#include <exception>
#include <vector>

#include "harness/cli/command.h"
#include "harness/gate/version.h"

int main(int argc, char** argv) {
  CLI::App app{"tailrig harness: inspect, fix and measure tail rigs"};
  app.set_version_flag("--version", harness::kToolVersion);
  app.require_subcommand(1);
  std::vector<harness::Command> commands = {
      harness::add_info_command(app),     harness::add_fixture_command(app),
      harness::add_list_command(app),     harness::add_run_command(app),
      harness::add_fix_command(app),      harness::add_strip_tail_command(app),  harness::add_convert_command(app),
      harness::add_retarget_command(app),
      harness::add_bake_command(app),     harness::add_pose_command(app),     harness::add_stretch_command(app),
      harness::add_batch_command(app),
  };
#ifdef TAILRIG_HAVE_BENCH
  commands.push_back(harness::add_bench_command(app));
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "harness: %s (see --help)\n", e.what());
    return harness::kExitBadInput;
  }
  try {
    for (auto& c : commands) {
      if (c.app->parsed()) return c.run();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "harness: %s\n", e.what());
    return harness::kExitBadInput;
  }
  return harness::kExitBadInput;
}
