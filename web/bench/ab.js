// Two or more wasm builds of the solver (dist/ab/<name>.wasm: copies of
// dist/tailrig_solver.wasm from different trees or flags, the same exports
// and glue) on the bench's batch side (bench.js wasm_batch: hips read, one
// step, rotations out), sample by sample in turn, so that a shared
// machine's load hits every build alike. `name:oldread` runs a build with
// the adapter's former readHips. Per build: the lowest, 10th, 25th
// percentile and median sample (2 frames; a sample fits in a time slice
// far more often than the bench's block of 30 does), the 25th percentile of
// the hips read and of the step alone, and a checksum of the rotations
// (the same bits or not).
import { loadTailrig } from '../src/tailrig.js';
import { TailrigThreeBatchAdapter } from '../src/three_batch_adapter.js';
import { makeChains, poseHips } from './chains.js';

const kDt = 1 / 60;

// The adapter's readHips before the ancestors were updated once per frame.
function oldReadHips() {
  const hips = this.batch.hipsWorld();
  const characters = this.characters;
  for (let c = 0; c < characters.length; ++c) {
    const h = characters[c].hips;
    h.updateWorldMatrix(true, false);
    hips.set(h.matrixWorld.elements, 16 * c);
  }
}

export async function runAb({ builds, frames = 2000, chains: n = 1000, profile = false } = {}) {
  const systems = [];
  for (const name of builds) {
    const [build, mode] = name.split(':');
    const tailrig = await loadTailrig({ wasmUrl: new URL(`../dist/ab/${build}.wasm`, import.meta.url) });
    const world = makeChains(n);
    const adapter = new TailrigThreeBatchAdapter(tailrig, world.chains.map((c) => c.skeleton));
    if (mode === 'oldread') adapter.readHips = oldReadHips;
    systems.push({ name, world, adapter, times: [], read: [], step: [], time: 0 });
  }
  // A sample is kPerSample frames (their poses set untimed).
  const kPerSample = 2;
  const frame = (s, timed) => {
    let sum = 0, read = 0, step = 0;
    for (let k = 0; k < kPerSample; ++k) {
      s.time += kDt;
      poseHips(s.world.chains, s.time);
      const t0 = performance.now();
      s.adapter.readHips();
      const t1 = performance.now();
      s.adapter.batch.step(kDt);
      const t2 = performance.now();
      s.adapter.batch.localRotations(s.adapter.rotations);
      const t3 = performance.now();
      sum += t3 - t0, read += t1 - t0, step += t2 - t1;
    }
    if (timed) s.times.push(sum / kPerSample), s.read.push(read / kPerSample), s.step.push(step / kPerSample);
  };
  for (let f = 0; f < 20; ++f) for (const s of systems) frame(s, false);
  // bench/prof.mjs: the timed frames only, under the page's profiler.
  if (profile) console.profile('ab');
  for (let f = 0; f < frames; ++f) for (const s of systems) frame(s, true);
  if (profile) console.profileEnd('ab');
  const result = {};
  for (const s of systems) {
    const sorted = (v) => [...v].sort((a, b) => a - b);
    const t = sorted(s.times);
    const at = (p) => t[Math.floor(p * (t.length - 1))];
    const p25 = (v) => sorted(v)[Math.floor(0.25 * (v.length - 1))];
    let sum = 0;
    const r = s.adapter.rotations;
    for (let i = 0; i < r.length; ++i) sum += r[i] * ((i % 97) + 1);
    result[s.name] = { min: t[0], p10: at(0.1), p25: at(0.25), median: at(0.5), readP25: p25(s.read), stepP25: p25(s.step), checksum: sum };
  }
  result.crossOriginIsolated = self.crossOriginIsolated;
  return result;
}
