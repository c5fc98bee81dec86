// Loads a character with tailrig::rig and runs detection with tailrig::detect.
// Usage: consumer_detect FILE. Prints the region count; exit 0 ok, 2 bad file.
#include <cstdio>

#include "detect/find_appendages.h"
#include "rig/io/io.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer_detect FILE\n");
    return 2;
  }
  rig::Character character;
  if (const rig::Status s = rig::load(argv[1], character); !s.ok()) {
    std::fprintf(stderr, "consumer_detect: %s\n", s.message.c_str());
    return 2;
  }
  detect::Analysis analysis;
  if (const rig::Status s = detect::find_appendages(character, detect::Params{}, analysis);
      !s.ok()) {
    std::fprintf(stderr, "consumer_detect: %s\n", s.message.c_str());
    return 2;
  }
  std::printf("consumer_detect: ok (%zu regions)\n", analysis.regions.size());
  return 0;
}
