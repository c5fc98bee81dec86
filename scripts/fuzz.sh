#!/bin/sh
# fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]: builds the libFuzzer targets, the
# harness and rig_tests with clang under ASan + UBSan (scripts/test.sh runs
# the bad-input corpus and the IO unit tests on that same build) and runs
# each fuzz target from its seeds (fixtures, test data and, when present,
# ../shared/assets) for SECONDS (default 12; 0 only builds). A crash leaves
# its input as BUILD_DIR/crashes/TARGET-crash-*: add it to the bad-input
# corpus (harness/tests/make_bad_inputs.py) with the fix.
# Build flags chosen for CI time on 2 cores: -O1 (sanitizers stay fast, the
# compile is ~2x quicker than -O2), line tables only for symbolised reports,
# Debug so asserts stay on, no benchmarks.
set -eu
secs=${1:-12}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-"$root/build/fuzz"}
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ missing (scripts/setup.sh installs it)"; exit 2; }
launcher=""
command -v ccache >/dev/null && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DTAILRIG_FUZZ=ON -DTAILRIG_CTEST_PER_CASE=ON -DTAILRIG_BENCHMARKS=OFF -DTAILRIG_JEMALLOC=OFF -DTAILRIG_WERROR=ON $launcher \
  "-DCMAKE_CXX_FLAGS=-O1 -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
  "-DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" >/dev/null
# The build's progress stays out of the log; a failed build shows its errors.
ninja -C "$build" -j"${TAILRIG_JOBS:-2}" fuzz_load_glb fuzz_load_gltf fuzz_load_bvh fuzz_json fuzz_solver_step fuzz_solver_c_api fuzz_fix_glb harness rig_tests >"$build/build.log" 2>&1 || {
  grep -E -A3 'FAILED|error' "$build/build.log" | head -40
  echo "fuzz.sh: the sanitizer build failed (all of it: $build/build.log)"
  exit 1
}
[ "$secs" = 0 ] && exit 0

# Seeds: small real files only (libFuzzer mutates better from small inputs).
seeds="$build/seeds"
rm -rf "$seeds"; mkdir -p "$seeds/glb" "$seeds/gltf" "$seeds/bvh" "$seeds/json" "$seeds/solver" "$build/crashes"
python3 "$root/harness/tests/make_bad_inputs.py" "$build/bad" >/dev/null
cp "$build"/bad/*.glb "$seeds/glb/" 2>/dev/null || true
rm -f "$seeds/glb/nodes_100000_deep.glb"
cp "$build"/bad/*.bvh "$seeds/bvh/" 2>/dev/null || true
rm -f "$seeds/bvh/bvh_100000_deep.bvh"
"$build/harness/harness" fixture fox --density 0.25 --out "$seeds/glb/fox.glb" >/dev/null
cp "$root"/harness/tests/data/*.gltf "$seeds/gltf/"
cp "$root"/scenarios/*.json "$seeds/json/"
for g in "$root"/golden/*.json; do cp "$g" "$seeds/json/golden_$(basename "$g")"; done  # same names as the scenarios
find "$build/bad/scenarios" "$build/bad/golden" -name '*.json' -exec cp {} "$seeds/json/" \; 2>/dev/null || true
assets="${TAILRIG_ASSETS:-$root/../shared/assets}"
[ -d "$assets/clips" ] && find "$assets/clips" -name '*.bvh' -size -200k -exec cp {} "$seeds/bvh/" \; || true
[ -f "$assets/characters/Fox.glb" ] && cp "$assets/characters/Fox.glb" "$seeds/glb/asset_fox.glb"
head -c 4096 /dev/urandom > "$seeds/solver/random"

# Leaks inside Debian's Assimp are not ours (scripts/lsan_suppressions.txt).
export LSAN_OPTIONS="suppressions=$root/scripts/lsan_suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
for t in glb gltf bvh json solver c_api fix; do
  seed_dir="$seeds/$t"
  case $t in
    json) bin=fuzz_json ;;
    solver) bin=fuzz_solver_step ;;
    c_api) bin=fuzz_solver_c_api; seed_dir="$seeds/solver" ;;  # the C API with colliders
    fix) bin=fuzz_fix_glb; seed_dir="$seeds/glb" ;;  # load + detect::fix + save
    *) bin=fuzz_load_$t ;;
  esac
  echo "fuzz.sh: $bin for ${secs}s"
  corpus="$build/corpus/$t"; mkdir -p "$corpus"
  if ! "$build/$bin" "$corpus" "$seed_dir" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -max_len=300000 -artifact_prefix="$build/crashes/$bin-" -print_final_stats=1 2>"$build/$bin.log"; then
    echo "fuzz.sh: $bin FOUND A CRASH (see $build/$bin.log, $build/crashes/)"; tail -30 "$build/$bin.log"; status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/$bin.log" | tr '\n' ' '; echo
done
exit $status
