// libFuzzer target: any bytes as a GLB through what `harness fix` does —
// rig::load, detect::fix (chain mode, default parameters) and rig::save_glb
// to /dev/null. Reaches welding, components, geodesics and the tail split
// that the load-only targets never run. Must never crash, hang or read out
// of bounds; errors are fine.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "detect/find_appendages.h"
#include "rig/io/io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/tailrig_fuzz_fix_" + std::to_string(::getpid()) + ".glb";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  rig::Character c;
  if (!rig::load(path, c).ok()) return 0;
  detect::FixResult result;
  if (detect::fix(c, detect::Mode::kChain, detect::Params{}, result).ok()) {
    (void)rig::save_glb(result.character, "/dev/null");
  }
  return 0;
}
