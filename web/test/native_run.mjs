// The native half of the agreement tests: writes a run in the format of
// web/native/run_c_api.c, replays it with this build's native solver and
// reads back every frame's tail. The reference is computed at test time,
// from the same C++ the wasm was compiled from.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export { runWasm } from './wasm_run.mjs';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The native build folder: TAILRIG_BUILD, else the repository's build/ci. */
export function buildDir() {
  return process.env.TAILRIG_BUILD ? resolve(process.env.TAILRIG_BUILD) : resolve(webDir, '..', 'build', 'ci');
}

/** Path of run_c_api, or null when the native build has not made it. */
export function nativeRunner() {
  const path = join(buildDir(), 'web', 'run_c_api');
  return existsSync(path) ? path : null;
}

// JavaScript prints the shortest text that reads back to the same double,
// and strtod reads it back exactly: the native run gets the very same bits.
const num = (x) => {
  if (!Number.isFinite(x)) throw new Error(`non-finite number in a run: ${x}`);
  return String(x);
};

/**
 * run: { rig: {names, parents, inverseBinds, hips}, colliderMargin (or -1),
 *        capsuleCount, frames: [{op: 's'|'r', dt, hips: 16, capsules: 8*C}] }
 */
export function formatRun(run) {
  const lines = ['tailrig-run 1', `joints ${run.rig.names.length}`];
  run.rig.names.forEach((name, j) => {
    const ibm = Array.from(run.rig.inverseBinds.slice(16 * j, 16 * j + 16), num);
    lines.push(`${name} ${run.rig.parents[j]} ${ibm.join(' ')}`);
  });
  lines.push(`hips ${run.rig.hips ?? -1}`);
  lines.push(`collider_margin ${num(run.colliderMargin ?? -1)}`);
  lines.push(`capsules ${run.capsuleCount}`, `frames ${run.frames.length}`);
  for (const f of run.frames) {
    const caps = Array.from(f.capsules ?? [], num);
    lines.push([f.op, num(f.dt), ...Array.from(f.hips, num), ...caps].join(' '));
  }
  return lines.join('\n') + '\n';
}

/** Parses run_c_api's output: per frame, Float64Arrays of positions and rotations. */
export function parseOutput(text) {
  const lines = text.trim().split('\n');
  const bones = Number(/^bones (\d+)$/.exec(lines[0])[1]);
  const frames = [];
  for (let i = 1; i < lines.length; i += bones + 1) {
    const positions = new Float64Array(3 * bones);
    const rotations = new Float64Array(4 * bones);
    for (let b = 0; b < bones; ++b) {
      const v = lines[i + 1 + b].split(' ').map(Number);
      positions.set(v.slice(0, 3), 3 * b);
      rotations.set(v.slice(3, 7), 4 * b);
    }
    frames.push({ positions, rotations });
  }
  return { bones, frames };
}

/** Replays the run natively; throws with run_c_api's message on failure. */
export function runNative(run) {
  const runner = nativeRunner();
  if (!runner) throw new Error(`no native run_c_api in ${buildDir()}/web (build target web_run_c_api)`);
  const dir = mkdtempSync(join(tmpdir(), 'tailrig-run-'));
  try {
    const file = join(dir, 'run.txt');
    writeFileSync(file, formatRun(run));
    return parseOutput(execFileSync(runner, [file], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Largest |a - b| over every frame's positions, and where. */
export function largestDifference(a, b, field = 'positions') {
  let worst = { value: 0, frame: -1, index: -1 };
  a.frames.forEach((fa, f) => {
    const va = fa[field];
    const vb = b.frames[f][field];
    for (let i = 0; i < va.length; ++i) {
      const d = Math.abs(va[i] - vb[i]);
      if (!(d <= worst.value)) worst = { value: d, frame: f, index: i };
    }
  });
  return worst;
}
