#!/bin/sh
# `npm test`: builds the wasm (wasm/build.sh), then runs every web test with
# node's test runner: native vs wasm agreement (needs the native build's
# run_c_api: TAILRIG_BUILD, default ../build/ci), the C API boundary, the
# three.js adapter on the fixed fox (needs that build's harness), and the
# real-browser tests (headless Debian chromium via puppeteer-core).
# What cannot be had is skipped, never failed: exit 77 with one line saying
# what is missing (scripts/setup.sh installs all of it).
set -eu
web=$(cd "$(dirname "$0")/.." && pwd)
cd "$web"
[ -d node_modules/three ] && [ -d node_modules/puppeteer-core ] || {
  echo "SKIP: web/node_modules missing (npm ci in web/; scripts/setup.sh does)"; exit 77; }
command -v em++ >/dev/null 2>&1 || { echo "SKIP: needs em++ (apt-get install emscripten; scripts/setup.sh does)"; exit 77; }
sh wasm/build.sh >/dev/null
browser=${TAILRIG_CHROMIUM:-/usr/bin/chromium}
export TAILRIG_CHROMIUM="$browser"
node --test test/*.test.mjs
# The tests above skip themselves (and say so) for what is missing; the
# run as a whole then says SKIP too, so a partial run is never a pass.
build=${TAILRIG_BUILD:-"$web/../build/ci"}
if [ ! -x "$build/web/run_c_api" ] || [ ! -x "$build/harness/harness" ]; then
  echo "SKIP: the agreement and fox tests need the native build in $build (scripts/test.sh builds it)"
  exit 77
fi
if [ ! -x "$browser" ]; then
  echo "SKIP: the browser tests need $browser (apt-get install chromium; scripts/setup.sh does)"
  exit 77
fi
