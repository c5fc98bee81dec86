// The harness executable's allocator (CMake option TAILRIG_JEMALLOC).
// jemalloc reads `malloc_conf` at start-up: transparent huge pages for every
// mapping (this kernel's THP mode is "madvise", so glibc's malloc gets 4 KiB
// pages and a 1 M-vertex `fix` took 266 k page faults, half its CPU time;
// with this: ~3 k) and no decay, since a harness process is short-lived and
// reuses what it frees. No arena of its own for blocks over 8 MB
// (oversize_threshold:0): they come from the same extents as the rest, so a
// freed array serves the next one of another size instead of fresh pages
// (a 1 M-vertex `fix` touched 312 MB instead of 340; issue 47). One arena
// for every thread (narenas:1): `harness run --jobs N` and the corpus run
// their tasks on threads that free what another allocated, and with an
// arena per thread (jemalloc's default, four per core) each grew its own
// fresh pages: `run --all --jobs 2` peaked at ~420 MB and spent 0.3-0.6 s
// of system time zeroing them, ~320 MB and 0.1-0.25 s with one (the threads'
// caches still serve small blocks without the arena's lock). No
// background thread: allocation stays on the caller's thread and never
// changes a computed bit.
#include "harness/cli/allocator.h"

#ifndef TAILRIG_HAVE_JEMALLOC
#include <malloc.h>
#endif

#ifdef TAILRIG_HAVE_JEMALLOC
#include <cstddef>
#include <string>

extern "C" {
extern const char* malloc_conf;
const char* malloc_conf =
    "thp:always,metadata_thp:always,dirty_decay_ms:-1,muzzy_decay_ms:-1,oversize_threshold:0,narenas:1";
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

void release_free_memory() {
#ifdef TAILRIG_HAVE_JEMALLOC
  // Every arena's dirty pages (MALLCTL_ARENAS_ALL is 4096).
  (void)mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
#else
  (void)malloc_trim(0);
#endif
}

}  // namespace harness
