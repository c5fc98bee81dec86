// The report viewer: `harness run walk_stretch --report DIR` writes
// DIR/viewer.html; headless chromium opens it from file:// (no server, no
// network), it shows the fox before and after fix, coloured by edge
// stretch, with the wasm tail live. The screenshot is read back (the
// browser's own PNG decoder) and must be neither blank nor without the
// stretch colours; the rigger's tail must be torn (red), the live tail move.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { browserSkip, launchBrowser } from './browser.mjs';
import { harnessPath } from './fixed_fox.mjs';

const skip = browserSkip || (harnessPath() ? false : 'needs the native build (harness)');

// Counts in a PNG (as a data URL) the pixels that are not background
// white, and those of the red/orange of stretched edges (viewer/edge_stretch.js).
async function countPixels(page, png) {
  return page.evaluate(async (dataUrl) => {
    const image = new Image();
    image.src = dataUrl;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const g = canvas.getContext('2d');
    g.drawImage(image, 0, 0);
    const d = g.getImageData(0, 0, image.width, image.height).data;
    let drawn = 0, red = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b] = [d[i], d[i + 1], d[i + 2]];
      if (r < 245 || gr < 245 || b < 245) ++drawn;
      if (r > 150 && r > gr + 60 && r > b + 80) ++red;
    }
    return { width: image.width, height: image.height, drawn, red };
  }, `data:image/png;base64,${png}`);
}

test('chromium: harness run --report writes a viewer that shows the stretch', { skip, timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tailrig-report-'));
  const { close, browser } = await launchBrowser({ webgl: true });
  try {
    execFileSync(harnessPath(), ['run', 'walk_stretch', '--report', dir], { stdio: 'pipe' });
    assert.ok(existsSync(join(dir, 'viewer.html')), 'no viewer.html in the report');
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(dir, 'viewer.html')).href);
    await page.waitForFunction('window.viewerReady || window.viewerError', { timeout: 120000 });
    assert.equal(await page.evaluate(() => window.viewerError), undefined);
    // A moment of the walk where the rigger's tail tears, reached by
    // stepping the live tail through the clip from the start.
    const state = await page.evaluate(() => window.viewerSetTime(0.8));
    const png = await page.screenshot({ encoding: 'base64' });
    const shot = process.env.TAILRIG_VIEWER_SCREENSHOT;
    if (shot) await page.screenshot({ path: shot });
    const torn = (s) => s.tailStretched / Math.max(s.tailEdges, 1);
    const { before, baked, live } = state.stretch;
    console.log(`viewer at ${state.time} s: tail edges over 1.3: before ${(100 * torn(before)).toFixed(1)} %, ` +
      `baked ${(100 * torn(baked)).toFixed(1)} %, live ${(100 * torn(live)).toFixed(1)} % (of ${before.tailEdges}); ` +
      `largest tail edge ratio ${before.tailMaxRatio.toFixed(2)} / ${baked.tailMaxRatio.toFixed(2)} / ${live.tailMaxRatio.toFixed(2)}; ` +
      `live tip travelled ${state.liveTipTravel.toFixed(3)} m in the hips frame`);
    assert.equal(state.character, true);
    assert.ok(before.tailEdges > 1000, `tail region of ${before.tailEdges} edges`);
    assert.ok(torn(before) > 0.02, 'the rigger\'s tail shows no tearing');
    assert.ok(torn(baked) < 0.1 * torn(before) && torn(live) < 0.1 * torn(before), 'fix did not remove the tearing');
    assert.ok(state.liveTipTravel > 0.02, 'the live tail does not move');
    const tables = await page.$$eval('#tables table', (t) => t.length);
    assert.ok(tables >= 2, 'the tables are missing');
    const pixels = await countPixels(page, png);
    console.log(`viewer screenshot ${pixels.width}x${pixels.height}: ${pixels.drawn} drawn pixels, ${pixels.red} stretch-red`);
    assert.ok(pixels.drawn > 0.05 * pixels.width * pixels.height, 'the screenshot is (nearly) blank');
    assert.ok(pixels.red > 50, 'no stretch colour in the screenshot');
    assert.deepEqual(errors, []);
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
});
