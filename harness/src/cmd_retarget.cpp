// Placeholder: `harness retarget` (issue #7).
#include <cstdio>

#include "command.h"

namespace harness {

Command add_retarget_command(CLI::App& root) {
  Command c;
  c.app = root.add_subcommand("retarget", "Retarget a clip onto a character (not implemented yet)");
  c.run = [] {
    std::fprintf(stderr, "harness retarget: not implemented yet\n");
    return int(kExitBadInput);
  };
  return c;
}

}  // namespace harness
