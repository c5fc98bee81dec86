// The wasm package's boundary: what the C API refuses is a TailrigError
// and leaves the chain as it was; nothing non-finite comes out.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadTailrig, TailrigError } from '../src/tailrig.js';
import { walkRig, walkRun } from './walk_run.mjs';

const tailrig = await loadTailrig();
const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

test('defaults are solver::ChainParams', () => {
  const p = tailrig.defaultParams();
  assert.equal(p.internalStep, 1 / 120);
  assert.equal(p.maxSubsteps, 64);
  assert.deepEqual(p.forwardAxis, [0, 0, 1]);
});

test('a rig without a tail is refused with NO_TAIL', () => {
  const rig = walkRig();
  rig.names = rig.names.map((n) => n.replace('Tail_', 'Tall_'));
  assert.throws(() => tailrig.createChain(rig), (e) => e instanceof TailrigError && e.status === 'NO_TAIL');
});

test('NaN or infinity in dt, hips or a capsule is refused and the state kept', () => {
  const chain = tailrig.createChain(walkRig());
  const frames = walkRun({ withCapsule: true }).frames;
  for (let f = 0; f < 20; ++f) chain.step(frames[f].dt, frames[f].hips, frames[f].capsules);
  const before = chain.worldPositions();
  const badHips = [...identity];
  badHips[13] = Infinity;
  const badCapsule = [...frames[20].capsules];
  badCapsule[6] = NaN;
  for (const call of [
    () => chain.step(NaN, frames[20].hips),
    () => chain.step(1 / 60, badHips),
    () => chain.step(1 / 60, frames[20].hips, badCapsule),
    () => chain.reset(badHips),
    () => chain.setParams({ gravity: NaN }),
  ]) {
    assert.throws(call, (e) => e instanceof TailrigError && e.status === 'NON_FINITE');
    assert.deepEqual(chain.worldPositions(), before);
  }
  assert.throws(() => chain.step(1 / 60, frames[20].hips, new Float64Array(8 * 17)), TailrigError);
  assert.ok(chain.worldPositions().every(Number.isFinite));
  chain.dispose();
  assert.throws(() => chain.step(1 / 60, identity), TailrigError);
});

test('collider params round-trip', () => {
  const chain = tailrig.createChain(walkRig());
  chain.setColliderParams({ margin: 0.05 });
  assert.deepEqual(chain.colliderParams(), { margin: 0.05, friction: 0.2 });
  assert.throws(() => chain.setColliderParams({ friction: 2 }), TailrigError);
  chain.dispose();
});
