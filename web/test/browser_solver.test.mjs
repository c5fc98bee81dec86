// The wasm solver in a real browser (headless chromium): the page loads the
// package, runs the agreement walk, and its tail matches the native solver
// at given frames, with no console error.
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { browserSkip, launchBrowser, runPage } from './browser.mjs';
import { nativeRunner, runNative } from './native_run.mjs';
import { serveFolder } from './static_server.mjs';
import { walkRun } from './walk_run.mjs';

const kFrames = [0, 1, 100, 249, 250, 300, 400, 401, 599];
const kTolerance = 1e-10; // as agreement.test.mjs, for the same reasons
const skip = browserSkip || (nativeRunner() ? false : 'needs the native build (web_run_c_api)');

test('chromium: the wasm tail moves and matches native at given frames', { skip, timeout: 120000 }, async () => {
  const server = await serveFolder(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  const { close, browser } = await launchBrowser();
  try {
    const { result, error, errors } = await runPage(browser, `${server.url}/test/pages/solver.html`);
    assert.equal(error, undefined, error);
    assert.deepEqual(errors, []);
    for (const [key, withCapsule] of [['free', false], ['capsule', true]]) {
      const native = runNative(walkRun({ withCapsule }));
      for (const f of kFrames) {
        const got = result[key][f];
        const want = native.frames[f].positions;
        got.forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= kTolerance,
          `${key} frame ${f} [${i}]: browser ${v}, native ${want[i]}`));
      }
      // Moves: the tip relative to the hips changes between frames 100 and 140.
      const run = walkRun({ withCapsule });
      const rel = (f) => [0, 1, 2].map((k) => result[key][f][12 + k] - run.frames[f].hips[12 + k]);
      const a = rel(100), b = rel(140);
      assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) > 0.005, `${key}: the tail did not move`);
    }
  } finally {
    await close();
    await server.close();
  }
});
