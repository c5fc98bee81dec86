// The three.js batch adapter: many characters' tails through one batch.
// Its bones get exactly the batch's rotations (driven directly with the
// same hips), their world matrices follow, and each character's tail
// stays near the one the single-chain adapter (double precision) gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Object3D, Vector3 } from 'three';

import { makeChains, poseHips } from '../bench/chains.js';
import { loadTailrig } from '../src/tailrig.js';
import { TailrigThreeAdapter } from '../src/three_adapter.js';
import { TailrigThreeBatchAdapter } from '../src/three_batch_adapter.js';

// Float lanes and nlerp (solver/batch.h) against the double chain with
// slerp: the batch is held to 1 % of the character's height of the scalar
// solver (solver/tests/batch_test.cpp, kMaxPointError); here (hips at 1 m,
// a 0.8 m tail swinging 0.3 m) the tips measured 4.6e-3 m apart at worst
// over 300 frames. Held to 0.01 m.
const kBatchVsChain = 0.01;
const kCharacters = 21; // not a multiple of the 16-lane block
const tailrig = await loadTailrig();

test('the batch adapter writes the batch\'s rotations and world matrices, near the single-chain adapter', () => {
  const crowd = makeChains(kCharacters).chains;
  const single = makeChains(kCharacters).chains;
  const direct = makeChains(kCharacters).chains;
  const adapter = new TailrigThreeBatchAdapter(tailrig, crowd.map((c) => c.skeleton));
  const singles = single.map((c) => new TailrigThreeAdapter(tailrig, c.skeleton, { colliders: 'none' }));
  const reference = new TailrigThreeBatchAdapter(tailrig, direct.map((c) => c.skeleton)).batch;
  const hips = new Float64Array(16 * kCharacters);
  let worstTip = 0;
  const tip0 = crowd[0].bones[4].getWorldPosition(new Vector3());
  let swing = 0;
  for (let f = 0; f < 300; ++f) {
    const t = f / 60;
    for (const world of [crowd, single, direct]) poseHips(world, t);
    adapter.update(1 / 60);
    for (const s of singles) s.update(1 / 60);
    direct.forEach((c, i) => { c.hips.updateWorldMatrix(true, false); hips.set(c.hips.matrixWorld.elements, 16 * i); });
    reference.step(1 / 60, hips);
    const expected = reference.localRotations();
    crowd.forEach((c, i) => {
      for (let b = 0; b < 4; ++b) {
        const q = c.bones[b].quaternion;
        const e = expected.subarray(4 * (4 * i + b), 4 * (4 * i + b) + 4);
        assert.deepEqual([q.x, q.y, q.z, q.w], Array.from(e), `character ${i} bone ${b} frame ${f}`);
      }
      // World matrices are this frame's: the tip from the bones' matrixWorld as written.
      const tip = new Vector3().setFromMatrixPosition(c.bones[4].matrixWorld);
      const other = new Vector3().setFromMatrixPosition(single[i].bones[4].matrixWorld);
      worstTip = Math.max(worstTip, tip.distanceTo(other));
      if (i === 0) swing = Math.max(swing, tip.distanceTo(tip0));
    });
  }
  console.log(`batch adapter: ${kCharacters} characters x 300 frames, tips within ${worstTip.toExponential(2)} m of the single-chain adapter's; tip moved ${swing.toFixed(3)} m`);
  assert.ok(worstTip <= kBatchVsChain, `tips differ by ${worstTip} m`);
  assert.ok(swing > 0.01, 'the tails hardly move');
  adapter.dispose();
  reference.dispose();
  for (const s of singles) s.dispose();
});

test('the batch adapter refuses skeletons of another rig', () => {
  const a = makeChains(2).chains;
  a[1].bones[2].name = 'Something_else';
  assert.throws(() => new TailrigThreeBatchAdapter(tailrig, a.map((c) => c.skeleton)), /skeleton 1 is not a copy/);
});

// readHips updates each ancestor once per call: the hips must still be
// exactly what hips.updateWorldMatrix(true, false) gives each character,
// with the ancestors moving every frame (a shared group, and a node of
// its own above some characters' hips), or a stale ancestor would show.
test('the batch adapter reads every hips as updateWorldMatrix(true, false) does, ancestors moving', () => {
  const world = makeChains(kCharacters);
  const group = world.root;
  const own = world.chains.slice(0, 5).map((c) => {
    const node = new Object3D();
    group.add(node);
    node.add(c.hips);
    return node;
  });
  const adapter = new TailrigThreeBatchAdapter(tailrig, world.chains.map((c) => c.skeleton));
  for (let f = 0; f < 20; ++f) {
    const t = f / 60;
    poseHips(world.chains, t);
    group.position.set(0.3 * Math.sin(t), 0.1 * t, 0);
    group.rotation.set(0, 0.5 * t, 0.1 * Math.sin(2 * t));
    own.forEach((node, k) => node.position.set(0, 0.05 * Math.sin(3 * t + k), 0.02 * k));
    adapter.readHips();
    const read = Array.from(adapter.batch.hipsWorld());
    world.chains.forEach((c, i) => {
      c.hips.updateWorldMatrix(true, false);
      assert.deepEqual(read.slice(16 * i, 16 * i + 16), c.hips.matrixWorld.elements, `character ${i} frame ${f}`);
    });
  }
  adapter.dispose();
});
