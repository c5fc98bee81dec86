#!/bin/sh
# The whole test suite: set up, build (warnings as errors), run every ctest;
# then (issue 15) the same tests under ASan + UBSan and a short fuzz run.
#   TAILRIG_SANITIZE=0       skip the sanitizer build and the fuzz run
#   TAILRIG_SANITIZE_TESTS=R run only the ctests matching regex R under ASan
#   TAILRIG_FUZZ_SECONDS=N   seconds per fuzz target (default 12; 0 skips)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/ci"
TAILRIG_CMAKE_ARGS="-DTAILRIG_WERROR=ON ${TAILRIG_CMAKE_ARGS:-}" "$root/scripts/setup.sh" "$build"
cd "$build"
ctest --output-on-failure -j "$(nproc)" --timeout 600

[ "${TAILRIG_SANITIZE:-1}" != 0 ] || exit 0
# Sanitizers: a Debug build at -O1 (asserts on, fast enough to run the
# suite), leaks included; any report fails the test that triggered it.
asan="$root/build/ci-asan"
launcher=""
command -v ccache >/dev/null && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTAILRIG_BENCHMARKS=OFF $launcher \
  "-DCMAKE_CXX_FLAGS=-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" >/dev/null
cmake --build "$asan" -j "$(nproc)"
cd "$asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j "$(nproc)" --timeout 1800 ${TAILRIG_SANITIZE_TESTS:+-R "$TAILRIG_SANITIZE_TESTS"}

secs=${TAILRIG_FUZZ_SECONDS:-12}
[ "$secs" = 0 ] || "$root/scripts/fuzz.sh" "$secs"
