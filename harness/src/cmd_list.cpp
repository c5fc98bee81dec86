// PLACEHOLDER until its issue lands: the subcommand exists so --help lists it.
#include <cstdio>

#include "command.h"

namespace harness {

Command add_list_command(CLI::App& root) {
  Command c;
  c.app = root.add_subcommand("list", "(not implemented yet)");
  c.app->allow_extras();
  c.run = [] {
    std::fprintf(stderr, "harness list: not implemented yet\n");
    return kExitBadInput;
  };
  return c;
}

}  // namespace harness
