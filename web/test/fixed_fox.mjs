// The fixed fox, made at test time by this build's harness: `harness
// fixture fox` then `harness fix` (a Tail_1..Tail_4 + Tail_End chain and
// four stored leg capsules), into a temporary folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { buildDir } from './native_run.mjs';

export function harnessPath() {
  const path = join(buildDir(), 'harness', 'harness');
  return existsSync(path) ? path : null;
}

/** The fixed fox's GLB bytes (a Buffer). */
export function makeFixedFox() {
  const harness = harnessPath();
  if (!harness) throw new Error(`no harness in ${buildDir()}/harness`);
  const dir = mkdtempSync(join(tmpdir(), 'tailrig-fox-'));
  try {
    execFileSync(harness, ['fixture', 'fox', '-o', join(dir, 'fox.glb')], { stdio: 'pipe' });
    execFileSync(harness, ['fix', join(dir, 'fox.glb'), '--out', join(dir, 'fox_fixed.glb')], { stdio: 'pipe' });
    return readFileSync(join(dir, 'fox_fixed.glb'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
