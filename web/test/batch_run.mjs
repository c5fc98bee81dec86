// A run (see native_run.mjs) through a batch of chains, in wasm and
// natively (run_c_api --batch): chain c at frame f takes the hips and
// capsules of frame (f + 17 c) mod F moved by 2 c rig units along x (so
// teleports fall on different frames per chain), frame f's dt, and frame
// f's resets.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { formatRun, nativeRunner } from './native_run.mjs';

/** Chain c's hips at frame f, written into out at 16 * c. */
export function batchHips(run, f, c, out) {
  const frames = run.frames.length;
  out.set(run.frames[(f + 17 * c) % frames].hips, 16 * c);
  out[16 * c + 12] += 2.0 * c;
}

/** Chain c's capsules at frame f, written into out at 8 * capsuleCount * c. */
export function batchCapsules(run, f, c, out) {
  const k = run.capsuleCount;
  const from = run.frames[(f + 17 * c) % run.frames.length].capsules;
  out.set(from, 8 * k * c);
  for (let i = 0; i < k; ++i) {
    out[8 * (k * c + i)] += 2.0 * c;
    out[8 * (k * c + i) + 3] += 2.0 * c;
  }
}

/** The run through a wasm batch of `chains`: per frame, every chain's rotations (floats). */
export function runWasmBatch(tailrig, run, chains) {
  const chain = tailrig.createChain(run.rig);
  if (run.colliderMargin >= 0) chain.setColliderParams({ margin: run.colliderMargin });
  const batch = chain.createBatch(chains);
  chain.dispose();
  try {
    const k = run.capsuleCount;
    if (k > 0) batch.setColliderCapacity(k);
    const hips = new Float64Array(16 * chains);
    const capsules = new Float64Array(8 * k * chains);
    const frames = run.frames.map((frame, f) => {
      for (let c = 0; c < chains; ++c) batchHips(run, f, c, hips);
      for (let c = 0; k > 0 && c < chains; ++c) batchCapsules(run, f, c, capsules);
      if (frame.op === 'r') {
        for (let c = 0; c < chains; ++c) batch.reset(c, hips.subarray(16 * c, 16 * c + 16));
      } else {
        batch.step(frame.dt, hips, k > 0 ? capsules : undefined);
      }
      return batch.localRotations();
    });
    return { bones: batch.boneCount, chains, isa: batch.isa, frames };
  } finally {
    batch.dispose();
  }
}

/** The same natively: run_c_api --batch. */
export function runNativeBatch(run, chains) {
  const dir = mkdtempSync(join(tmpdir(), 'tailrig-batch-run-'));
  try {
    const file = join(dir, 'run.txt');
    writeFileSync(file, formatRun(run));
    const text = execFileSync(nativeRunner(), [file, '--batch', String(chains)], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const lines = text.trim().split('\n');
    const [, bones, count] = /^bones (\d+) chains (\d+)$/.exec(lines[0]).map(Number);
    const frames = [];
    for (let i = 1; i < lines.length; i += count + 1) {
      const rotations = new Float32Array(4 * bones * count);
      for (let c = 0; c < count; ++c) rotations.set(lines[i + 1 + c].split(' ').map(Number), 4 * bones * c);
      frames.push(rotations);
    }
    return { bones, chains: count, frames };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
