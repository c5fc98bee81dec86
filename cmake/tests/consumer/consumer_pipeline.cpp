// Fixes a character with tailrig::pipeline as `harness fix --bake` does it:
// detect and rewrite (a Tail_* chain where a tail is found), bake the tail
// spring into every clip, write GLB. Usage: consumer_pipeline IN OUT.glb.
// Exit 0 ok, 2 bad input or a failed write.
#include <cstdio>
#include <utility>

#include "pipeline/fix.h"
#include "rig/io/io.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer_pipeline IN OUT.glb\n");
    return 2;
  }
  rig::Character character;
  if (const rig::Status s = rig::load(argv[1], character); !s.ok()) {
    std::fprintf(stderr, "consumer_pipeline: %s\n", s.message.c_str());
    return 2;
  }
  pipeline::FixOptions options;
  options.bake = true;
  pipeline::FixOutcome outcome;
  if (const rig::Status s = pipeline::fix_character(std::move(character), options, outcome); !s.ok()) {
    std::fprintf(stderr, "consumer_pipeline: %s\n", s.message.c_str());
    return 2;
  }
  if (const rig::Status s = rig::save_glb(outcome.result.character, argv[2]); !s.ok()) {
    std::fprintf(stderr, "consumer_pipeline: %s\n", s.message.c_str());
    return 2;
  }
  std::printf("consumer_pipeline: ok (%d chains, %zu clips baked)\n", outcome.result.chains,
              outcome.baked ? outcome.bake.clips.size() : size_t{0});
  return 0;
}
