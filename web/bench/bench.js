// Browser benchmark: per 60 fps frame, 1,000 chains of 4 bones driven by
// tailrig's wasm solver and by three-vrm's springbone, in the same page,
// the same hips motion. Timed: the systems' own update calls (the hips are
// posed before, untimed). Blocks of frames alternate between the systems so
// that a slower moment of a shared machine hits both.
//   wasm solver: TailChain.step per chain (the solver alone, C API calls)
//   wasm adapter: TailrigThreeAdapter.update per chain (hips matrix in,
//                 bone quaternions and world matrices out: what an app runs)
//   wasm batch:   the batch solver alone (SIMD128): every hips matrix read
//                 from its posed bone into the wasm heap, one TailBatch.step
//                 for all chains, every rotation copied out (Float32Array)
//   wasm batch adapter: TailrigThreeBatchAdapter.update (hips in, bone
//                 quaternions and world matrices out, every chain: what an
//                 app with many characters runs)
//   three-vrm:    VRMSpringBoneManager.update (writes bones, updates matrices)
import { Vector3 } from 'three';
import { VRMSpringBoneJoint, VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';

import { loadTailrig } from '../src/tailrig.js';
import { TailrigThreeAdapter } from '../src/three_adapter.js';
import { TailrigThreeBatchAdapter } from '../src/three_batch_adapter.js';
import { kBones, makeChains, poseHips } from './chains.js';

const kDt = 1 / 60;

function setUpVrm(chains) {
  const manager = new VRMSpringBoneManager();
  const settings = { hitRadius: 0.02, stiffness: 1.0, gravityPower: 0.5, gravityDir: new Vector3(0, -1, 0), dragForce: 0.4 };
  for (const c of chains) {
    for (let i = 0; i < kBones; ++i) manager.addJoint(new VRMSpringBoneJoint(c.bones[i], c.bones[i + 1], settings));
  }
  manager.setInitState();
  return { update: () => manager.update(kDt) };
}

function setUpAdapters(tailrig, chains) {
  const adapters = chains.map((c) => new TailrigThreeAdapter(tailrig, c.skeleton, { colliders: 'none' }));
  return { update: () => { for (const a of adapters) a.update(kDt); }, adapters };
}

// The solver alone: hips matrices read from the posed bones, one step each.
function setUpSolver(tailrig, chains) {
  const solver = chains.map((c) => ({ hips: c.hips, chain: new TailrigThreeAdapter(tailrig, c.skeleton, { colliders: 'none' }).chain }));
  return {
    update: () => {
      for (const s of solver) {
        s.hips.updateWorldMatrix(true, false);
        s.chain.step(kDt, s.hips.matrixWorld.elements);
      }
    },
  };
}

// The batch alone: hips in, rotations out, bones not written.
function setUpBatch(tailrig, chains) {
  const adapter = new TailrigThreeBatchAdapter(tailrig, chains.map((c) => c.skeleton));
  return {
    update: () => {
      adapter.readHips();
      adapter.batch.step(kDt);
      adapter.batch.localRotations(adapter.rotations);
    },
  };
}

function setUpBatchAdapter(tailrig, chains) {
  const adapter = new TailrigThreeBatchAdapter(tailrig, chains.map((c) => c.skeleton));
  return { update: () => adapter.update(kDt) };
}

const kSetUp = {
  wasm_solver: setUpSolver,
  wasm_adapter: setUpAdapters,
  wasm_batch: setUpBatch,
  wasm_batch_adapter: setUpBatchAdapter,
  three_vrm: (tailrig, chains) => setUpVrm(chains),
};

/** Runs the benchmark; resolves to the per-frame times in ms and ns per joint-step. */
export async function runBenchmark({ chains: n = 1000, frames = 600, block = 30 } = {}) {
  const tailrig = await loadTailrig();
  const systems = {};
  const worlds = {};
  for (const [name, setUp] of Object.entries(kSetUp)) {
    worlds[name] = makeChains(n);
    systems[name] = setUp(tailrig, worlds[name].chains);
  }
  const total = Object.fromEntries(Object.keys(systems).map((k) => [k, 0]));
  const blocks = Object.fromEntries(Object.keys(systems).map((k) => [k, []])); // ms per frame of each block
  const time = Object.fromEntries(Object.keys(systems).map((k) => [k, 0]));
  const run = (name, count, timed) => {
    let sum = 0;
    for (let f = 0; f < count; ++f) {
      time[name] += kDt;
      poseHips(worlds[name].chains, time[name]);
      const t0 = performance.now();
      systems[name].update();
      sum += performance.now() - t0;
    }
    if (timed) total[name] += sum, blocks[name].push(sum / count);
  };
  for (const name of Object.keys(systems)) run(name, 60, false); // warm-up: JIT, caches
  for (let done = 0; done < frames; done += block) {
    for (const name of Object.keys(systems)) run(name, block, true);
  }
  // Per system: the mean over every timed frame, and the median block (a
  // shared machine's busy moments hit single blocks; the median is the
  // typical block, robust to them, and not the luckiest).
  const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
  const result = { chains: n, bonesPerChain: kBones, frames, block, msPerFrame: {}, msPerFrameMedianBlock: {}, nsPerJointStep: {} };
  for (const name of Object.keys(systems)) {
    result.msPerFrame[name] = total[name] / frames;
    result.msPerFrameMedianBlock[name] = median(blocks[name]);
    result.nsPerJointStep[name] = (1e6 * total[name]) / (frames * n * kBones);
  }
  result.speedup = {};
  result.speedupMedianBlock = {};
  for (const name of Object.keys(systems)) {
    if (name === 'three_vrm') continue;
    result.speedup[name] = result.msPerFrame.three_vrm / result.msPerFrame[name];
    result.speedupMedianBlock[name] = result.msPerFrameMedianBlock.three_vrm / result.msPerFrameMedianBlock[name];
  }
  // The tails moved (a benchmark of chains that do nothing would be no
  // benchmark): the tip of a chain at the end against where it hangs at rest.
  const tipOf = (name, c) => worlds[name].chains[c].bones[kBones].getWorldPosition(new Vector3()).toArray();
  result.tips = { wasm_adapter: tipOf('wasm_adapter', 0), wasm_batch_adapter: tipOf('wasm_batch_adapter', 0),
    wasm_batch_adapter_last: tipOf('wasm_batch_adapter', n - 1), three_vrm: tipOf('three_vrm', 0) };
  return result;
}
