#!/bin/sh
# Compiles the solver's C API (solver/, Eigen only) to WebAssembly with
# Debian's emscripten: dist/tailrig_solver.mjs (an ES module factory) and
# dist/tailrig_solver.wasm. The scalar chain (tailrig_solver.h) and the
# batch (tailrig_batch.h) with its baseline kernel only: the AVX2/AVX-512
# kernel files are x86 and not built (batch.cpp dispatches to the baseline
# kernel off x86).
#   -ffp-contract=off   as the native build compiles step.cpp/collide.cpp: no
#                       fused multiply-add anywhere (wasm has none anyway;
#                       this keeps a future relaxed-SIMD build honest)
#   -fwasm-exceptions   the C API turns exceptions (bad_alloc) into status
#                       codes; wasm's own exception handling costs nothing
#                       on the path that does not throw
#   -msimd128 only on the batch files: the kernel's vector extensions of 4
#                       floats become wasm SIMD128 (f32x4) operations, the
#                       same per-lane IEEE operations as native SSE2. The
#                       scalar chain's files keep their flags: Eigen 3.4 has
#                       no wasm SIMD packets, so they would gain nothing, and
#                       their native agreement (agreement.test.mjs) was
#                       measured with exactly this build
#   -mbulk-memory on the batch files: their block copies (a block's hips,
#                       lanes held back) become memory.copy; without it
#                       emscripten's memcpy calls out to JavaScript for
#                       every copy of 512 bytes or more (63 a frame for
#                       1,000 chains: 2 % of the batch's frame in chromium's
#                       profiler). Every browser with SIMD128 has it.
#   -fno-math-errno     on the kernel, as natively (whose lane loop of sqrtf
#                       needs it to become one sqrtps; for wasm the kernel
#                       calls f32x4.sqrt itself, __wasm_simd128__)
# System libraries: Debian's emscripten ships them prebuilt in its frozen
# cache (/usr/share/emscripten/cache), so no first-run library build.
set -eu
web=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$web/.." && pwd)
command -v em++ >/dev/null 2>&1 || { echo "SKIP: needs em++ (apt-get install emscripten; scripts/setup.sh does)"; exit 77; }
mkdir -p "$web/dist"
eigen=/usr/include/eigen3
sources="chain.cpp step.cpp idle_sway.cpp collide.cpp tailrig_solver.cpp
  batch.cpp batch_colliders.cpp batch_sway.cpp batch_kernel_baseline.cpp tailrig_batch.cpp"
exports="tailrig_params_default tailrig_chain_create tailrig_chain_destroy tailrig_chain_bone_count
  tailrig_chain_bone_joint tailrig_chain_set_params tailrig_chain_reset tailrig_chain_step
  tailrig_frame_input_default tailrig_chain_step_frame tailrig_collider_params_default
  tailrig_chain_set_collider_params tailrig_chain_get_collider_params tailrig_chain_local_rotations
  tailrig_chain_world_matrices tailrig_last_error
  tailrig_batch_create tailrig_batch_destroy tailrig_batch_size tailrig_batch_bone_count tailrig_batch_isa
  tailrig_batch_set_threads tailrig_batch_threads tailrig_batch_set_params tailrig_batch_reset
  tailrig_batch_step tailrig_batch_local_rotations tailrig_batch_set_collider_capacity
  tailrig_batch_step_frames malloc free"
list=""
for e in $exports; do list="$list${list:+,}'_$e'"; done
# Objects under build/wasm, each recompiled only when its source or a header
# of solver/ is newer (a full compile is minutes on a shared 2-core machine).
obj="$root/build/wasm"
# ccache in front of emscripten's clang when the machine has it (as the
# native build does): a clean clone's wasm build took 83 s under a loaded
# 2-core machine, 17 s from the cache (the rest is emscripten's link).
if [ -z "${EM_COMPILER_WRAPPER:-}" ] && command -v ccache >/dev/null 2>&1; then
  export EM_COMPILER_WRAPPER=ccache CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
fi
mkdir -p "$obj"
flags="-std=c++20 -O3 -DNDEBUG -ffp-contract=off -fwasm-exceptions -I$root/solver/include -isystem $eigen"
objects=""
for src in $sources "$web/wasm/layout_check.cpp"; do
  case $src in /*) path=$src ;; *) path="$root/solver/src/$src" ;; esac
  o="$obj/$(basename "$src" .cpp).o"
  newer=$(find "$path" "$root/solver/include" "$root/solver/src" \( -name '*.h' -o -name '*.inc' \) -newer "$o" 2>/dev/null | head -1)
  if [ ! -f "$o" ] || [ "$path" -nt "$o" ] || [ -n "$newer" ]; then
    echo "em++ $(basename "$src")"
    case $src in
      batch_kernel_*) extra="-msimd128 -mbulk-memory -fno-math-errno" ;;
      batch*.cpp | tailrig_batch.cpp) extra="-msimd128 -mbulk-memory" ;;
      *) extra="" ;;
    esac
    em++ $flags $extra -c "$path" -o "$o"
  fi
  objects="$objects $o"
done
# ENVIRONMENT=web: emscripten 3.1.6's node glue uses require() and
# __dirname, which an ES module does not have; in node, src/tailrig.js reads
# the .wasm itself and hands it over as wasmBinary.
# Debian's emscripten runs its JavaScript optimizer with the machine's node,
# which may not be Debian's nodejs: point it at Debian's node modules (acorn).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
em++ -O3 -fwasm-exceptions -mbulk-memory $objects \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createTailrigModule -sENVIRONMENT=web \
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB -sTOTAL_STACK=1MB \
  "-sEXPORTED_FUNCTIONS=[$list]" \
  "-sEXPORTED_RUNTIME_METHODS=['UTF8ToString','stringToUTF8','lengthBytesUTF8']" \
  -o "$web/dist/tailrig_solver.mjs"
echo "built $web/dist/tailrig_solver.mjs and .wasm"
