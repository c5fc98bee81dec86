#!/bin/sh
# The whole test suite: set up, build (warnings as errors), run every ctest.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/ci"
TAILRIG_CMAKE_ARGS="-DTAILRIG_WERROR=ON ${TAILRIG_CMAKE_ARGS:-}" "$root/scripts/setup.sh" "$build"
cd "$build"
ctest --output-on-failure -j "$(nproc)" --timeout 600
