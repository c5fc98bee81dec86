// node bench/prof.mjs build [frames]: bench/ab.js on one build under
// chromium's sampling profiler; prints self time per function. For wasm
// function names, link with --profiling-funcs and put that link's glue
// (.mjs) in dist/ too while profiling: its imports are not minified, and
// with the usual glue they are wired to the wrong functions.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchBrowser } from '../test/browser.mjs';
import { serveFolder } from '../test/static_server.mjs';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const server = await serveFolder(web, {}, { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
const { browser, close } = await launchBrowser();
try {
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  const finished = new Promise((ok) => cdp.on('Profiler.consoleProfileFinished', (e) => ok(e.profile)));
  await page.goto(`${server.url}/bench/ab.html?builds=${process.argv[2]}&frames=${process.argv[3] ?? 2000}&profile`);
  await page.waitForFunction('window.testResult !== undefined || window.testError !== undefined', { timeout: 600000 });
  const profile = await finished;
  const self = new Map();
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  for (const n of profile.nodes) {
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    const t = dt.get(n.id) ?? 0;
    self.set(key, (self.get(key) ?? 0) + t);
    total += t;
  }
  // Callers of the top functions (bench/prof.mjs callers=name).
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const want = process.argv[4];
  if (want) {
    const paths = new Map();
    for (const n of profile.nodes) {
      if (!n.callFrame.functionName.includes(want)) continue;
      let path = [], p = n;
      for (let d = 0; d < 6 && p; ++d, p = parent.get(p.id)) path.push(p.callFrame.functionName.slice(0, 40));
      const k = path.join(' <- ');
      paths.set(k, (paths.get(k) ?? 0) + (dt.get(n.id) ?? 0));
    }
    for (const [k, t] of [...paths.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`${(t / 1000).toFixed(0)} ms ${k}`);
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [k, t] of rows) console.log(`${(100 * t / total).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(7)} ms  ${k}`);
} finally {
  await close();
  await server.close();
}
