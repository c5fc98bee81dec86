// The three.js adapter in a real browser (headless chromium): the fixed fox
// loaded with GLTFLoader from a served GLB, its walk played by three.js, the
// tail driven by the wasm solver; the tail swings and its bones are where
// the native solver puts them (same tolerance and reason as three_fox.test).
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { browserSkip, launchBrowser, runPage } from './browser.mjs';
import { harnessPath, makeFixedFox } from './fixed_fox.mjs';
import { tipSwing } from './fox_run.mjs';
import { largestDifference, nativeRunner, runNative } from './native_run.mjs';
import { serveFolder } from './static_server.mjs';

const kTolerance = 1e-6;
const skip = browserSkip || (harnessPath() && nativeRunner() ? false : 'needs the native build (harness, web_run_c_api)');

test('chromium: three.js adapter on the fixed fox matches native', { skip, timeout: 120000 }, async () => {
  const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const server = await serveFolder(web, { '/fox_fixed.glb': makeFixedFox() });
  const { close, browser } = await launchBrowser();
  try {
    const { result, error, errors } = await runPage(browser, `${server.url}/test/pages/fox.html`);
    assert.equal(error, undefined, error);
    assert.deepEqual(errors, []);
    assert.deepEqual(result.boneNames, ['Tail_1', 'Tail_2', 'Tail_3', 'Tail_4']);
    assert.ok(Math.max(...tipSwing(result)) > 0.04, 'the tail hardly moves');
    const native = runNative(result.run);
    const d = largestDifference(native, { frames: result.threePositions.map((positions) => ({ positions })) });
    console.log(`chromium fox: three.js tail bones vs native, largest difference ${d.value} m (frame ${d.frame})`);
    assert.ok(d.value <= kTolerance, `browser and native differ by ${d.value} at frame ${d.frame}`);
  } finally {
    await close();
    await server.close();
  }
});
