#!/bin/sh
# Installs what tailrig needs on Debian 12 (apt packages, the pinned npm
# validator) and configures + builds. Idempotent: installs only what is missing.
# Usage: scripts/setup.sh [BUILD_DIR]   (default: build/release)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build/release"}
packages="cmake ninja-build g++ libassimp-dev libeigen3-dev nlohmann-json3-dev libgtest-dev
  libbenchmark-dev libcli11-dev libtinygltf-dev python3-matplotlib blender clang libclang-rt-14-dev
  dpkg-dev file libjemalloc-dev"  # dpkg-dev, file: cpack -G DEB reads Depends with dpkg-shlibdeps
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Node.js may come from another source (e.g. nodesource, which bundles npm):
# take Debian's only when there is none.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
  echo "setup: installing$missing" >&2
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $missing >/dev/null
fi
# The WebAssembly package's tests (web/, issue 48): Debian's emscripten
# and chromium, and web/'s pinned npm packages (puppeteer-core, three,
# three-vrm's springbone). Optional: if they cannot be installed, `npm test`
# in web/ skips (exit 77) instead of failing the build.
web_missing=""
for p in emscripten chromium; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || web_missing="$web_missing $p"
done
if [ -n "$web_missing" ]; then
  echo "setup: installing$web_missing (web/ tests)" >&2
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  { [ -n "$missing" ] || $sudo_cmd apt-get update -qq; } &&
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $web_missing >/dev/null ||
    echo "setup: could not install$web_missing; the web/ tests will skip" >&2
fi
# npm writes node_modules/.package-lock.json on install: older than the
# committed lock means packages were added or changed since.
if [ ! -f "$root/web/node_modules/.package-lock.json" ] ||
   [ "$root/web/package-lock.json" -nt "$root/web/node_modules/.package-lock.json" ]; then
  echo "setup: installing web/'s pinned npm packages (npm ci)" >&2
  (cd "$root/web" && npm ci --no-audit --no-fund --loglevel=error) ||
    echo "setup: npm ci in web/ failed; the web/ tests will skip" >&2
fi
if [ ! -d "$root/scripts/node_modules/gltf-validator" ]; then
  echo "setup: installing the pinned Khronos glTF validator (npm ci)" >&2
  (cd "$root/scripts" && npm ci --no-audit --no-fund --loglevel=error)
fi
# Line tables only (-g1): backtraces, perf and gdb's file:line stay, the
# code is the same, and the build compiles a third faster with a fifth of the
# object size (full -g: 826 MB of objects, a 190 MB harness that cpack strips
# in every package test). For a debugger build with locals:
# TAILRIG_CMAKE_ARGS=-DCMAKE_BUILD_TYPE=Debug (a later -D wins).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  ${TAILRIG_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)"
