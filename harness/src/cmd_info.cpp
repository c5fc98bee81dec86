// PLACEHOLDER
#include "command.h"
namespace harness {
Command add_info_command(CLI::App& root) {
  Command c;
  c.app = root.add_subcommand("info", "(not implemented yet)");
  c.run = [] { return kExitBadInput; };
  return c;
}
}  // namespace harness
