// libFuzzer target: any bytes as a GLB, glTF or BVH file (FUZZ_EXT picks the
// extension at build time) through rig::load and, when it loads, back out
// through rig::save_glb to /dev/null. Must never crash, hang or read out of
// bounds; errors are fine. Seeds: tests/data, the fixtures, the assets.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "rig/io/io.h"

#ifndef FUZZ_EXT
#define FUZZ_EXT ".glb"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/tailrig_fuzz_" + std::to_string(::getpid()) + FUZZ_EXT;
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  rig::Character c;
  if (rig::load(path, c).ok()) (void)rig::save_glb(c, "/dev/null");
  return 0;
}
