// The harness executable's allocator (CMake option TAILRIG_JEMALLOC).
// jemalloc reads `malloc_conf` at start-up: transparent huge pages for every
// mapping (this kernel's THP mode is "madvise", so glibc's malloc gets 4 KiB
// pages and a 1 M-vertex `fix` took 266 k page faults, half its CPU time;
// with this: ~3 k) and no decay, since a harness process is short-lived and
// reuses what it frees. No background thread: allocation stays on the caller's
// thread and never changes a computed bit.
#include "harness/cli/allocator.h"

#ifdef TAILRIG_HAVE_JEMALLOC
#include <cstddef>

extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:always,dirty_decay_ms:-1,muzzy_decay_ms:-1";
int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen);
}
#endif

namespace harness {

std::string allocator_description() {
#ifdef TAILRIG_HAVE_JEMALLOC
  const char* version = nullptr;
  const char* thp = nullptr;
  size_t n = sizeof version;
  if (mallctl("version", &version, &n, nullptr, 0) != 0 || !version) return "jemalloc";
  n = sizeof thp;
  std::string s = std::string("jemalloc ") + std::string(version).substr(0, std::string(version).find('-'));
  if (mallctl("opt.thp", &thp, &n, nullptr, 0) == 0 && thp) s += std::string(" (thp ") + thp + ")";
  return s;
#else
  return "system malloc";
#endif
}

}  // namespace harness
