#!/bin/sh
# The whole test suite: set up, build (warnings as errors), run every ctest.
# Then, with TAILRIG_SANITIZE=1, the sanitizer and fuzz stage (issue 15):
#   - scripts/fuzz.sh builds the harness, rig_tests and the libFuzzer targets
#     with clang under ASan + UBSan (-O1, line tables, build/fuzz);
#   - that harness runs the bad-input corpus (every crash, hang, overflow and
#     write failure of issue 15, the kill test) and rig_tests the IO, weld and
#     safe-write unit tests, any sanitizer report failing the test;
#   - each fuzz target runs TAILRIG_FUZZ_SECONDS (default 20) from its seeds.
# The Eigen-heavy solver, detect and harness unit tests stay out of it (one
# solver test file alone took 14 min to build under ASan on 2 cores).
# Still opt-in: its build took about 480 CPU-s for half of its ~93 steps on
# the shared 2-core machine (about 9 min on 2 idle cores for all of it,
# estimated), so with ~3 min of tests and 2 min of fuzzing it should fit the
# ~30 min CI budget next to the ~12 min release build and ctest, but it was
# not yet run end to end (the machine was 4x oversubscribed): turn it on by
# default once one full run is measured.
#   TAILRIG_SANITIZE=1       run the stage above
#   TAILRIG_SANITIZE=full    instead build everything under ASan + UBSan and
#                            run the whole ctest (slow: about an hour)
#   TAILRIG_FUZZ_SECONDS=N   seconds per fuzz target (0: no fuzzing)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/ci"
TAILRIG_CMAKE_ARGS="-DTAILRIG_WERROR=ON ${TAILRIG_CMAKE_ARGS:-}" "$root/scripts/setup.sh" "$build"
cd "$build"
ctest --output-on-failure -j "$(nproc)" --timeout 600

mode=${TAILRIG_SANITIZE:-0}
secs=${TAILRIG_FUZZ_SECONDS:-20}
[ "$mode" = 0 ] && exit 0
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

if [ "$mode" = full ]; then
  asan="$root/build/ci-asan"
  launcher=""
  command -v ccache >/dev/null && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTAILRIG_BENCHMARKS=OFF $launcher \
    "-DCMAKE_CXX_FLAGS=-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" >/dev/null
  cmake --build "$asan" -j "$(nproc)"
  cd "$asan"
  ctest --output-on-failure -j "$(nproc)" --timeout 1800
  exit 0
fi

fuzz="$root/build/fuzz"
"$root/scripts/fuzz.sh" 0 "$fuzz"
cd "$fuzz"
# rig_tests' gtest names: the IO readers and writer, welding, safe writes.
ctest --output-on-failure -j "$(nproc)" --timeout 900 \
  -R '^(bad_input|Weld\.|SafeWrite\.|SaveGlb\.|GltfRead\.|GltfRoundTrip\.|Load\.|StatusMessage\.|ModelHeight\.)'
[ "$secs" = 0 ] || "$root/scripts/fuzz.sh" "$secs" "$fuzz"
