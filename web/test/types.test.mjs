// The TypeScript types (src/*.d.ts) against a consumer written the way the
// JavaScript tests use the API: tsc --noEmit must accept it. skipLibCheck:
// three's own types are not ours to check (and take 14 s more of the 2-core
// machine); ours were checked once without it (same result).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');

test('the .d.ts files type-check a consumer (tsc --noEmit)', { timeout: 120000 }, () => {
  const tsc = spawnSync(process.execPath, [join(web, 'node_modules/typescript/bin/tsc'), '-p', join(web, 'test/types/tsconfig.json')],
    { encoding: 'utf8' });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
