// Native vs WebAssembly: the same rig, the same 600 frames (same bits in),
// through the native C API (run_c_api) and the wasm package.
//
// Tolerance, and why not bit-identical: both are compiled with
// -ffp-contract=off (no fused multiply-add), and wasm has no FMA, so every
// + - * / and sqrt rounds the same. What differs is the maths library
// (glibc's sin/cos/acos/atan2/exp against emscripten's musl, which may
// differ in the last bit) and native Eigen's SSE2 packets (dot products
// summed in pairs; wasm Eigen is scalar, summed in order). A damped spring
// does not grow such 1e-16 differences much. Measured (Debian emscripten
// 3.1.6, g++ 12 -O2/-O3): 7e-15 without colliders, 4e-13 with the capsule
// (contact decides from differences of nearly equal distances). We hold
// positions to 1e-10 rig units (0.1 nm on a metre rig; the tail is 0.8 m)
// and quaternion components to 1e-10, and print the measured difference.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadTailrig } from '../src/tailrig.js';
import { largestDifference, nativeRunner, runNative, runWasm } from './native_run.mjs';
import { walkRun } from './walk_run.mjs';

const kTolerance = 1e-10;
const tailrig = await loadTailrig();
const skip = nativeRunner() ? false : 'needs the native build (web_run_c_api; scripts/test.sh builds it)';

for (const withCapsule of [false, true]) {
  const name = withCapsule ? 'with a swinging capsule collider' : 'without colliders';
  test(`600 frames agree with the native solver, ${name}`, { skip }, () => {
    const run = walkRun({ withCapsule });
    const native = runNative(run);
    const wasm = runWasm(tailrig, run);
    assert.equal(wasm.bones, 5);
    assert.equal(native.frames.length, 600);
    assert.equal(wasm.frames.length, 600);
    const dp = largestDifference(native, wasm, 'positions');
    const dq = largestDifference(native, wasm, 'rotations');
    const identical = dp.value === 0 && dq.value === 0;
    console.log(`agreement ${name}: largest position difference ${dp.value} (frame ${dp.frame}), ` +
      `rotation ${dq.value} (frame ${dq.frame})${identical ? ': bit-identical' : ''}`);
    assert.ok(dp.value <= kTolerance, `positions differ by ${dp.value} at frame ${dp.frame}`);
    assert.ok(dq.value <= kTolerance, `rotations differ by ${dq.value} at frame ${dq.frame}`);
  });
}

test('the capsule changes the tail (the collider run tests colliders)', () => {
  const free = runWasm(tailrig, walkRun({ withCapsule: false }));
  const blocked = runWasm(tailrig, walkRun({ withCapsule: true }));
  const d = largestDifference(free, blocked, 'positions');
  assert.ok(d.value > 0.05, `the bar moved the tail by only ${d.value}`);
});

test('the tail moves during the walk', () => {
  const run = runWasm(tailrig, walkRun());
  // Tip relative to the hips at two frames of the walk: the spring swings it.
  const tip = (f) => {
    const p = run.frames[f].positions.slice(12, 15);
    const h = walkRun().frames[f].hips;
    return [p[0] - h[12], p[1] - h[13], p[2] - h[14]];
  };
  const a = tip(100), b = tip(140);
  assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) > 0.005);
});
