// node bench/ab.mjs name1,name2[:oldread] [frames]: bench/ab.js in headless
// chromium, cross-origin isolated (see ab.js).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchBrowser, runPage } from '../test/browser.mjs';
import { serveFolder } from '../test/static_server.mjs';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Cross-origin isolated: performance.now() then has 5 us steps, not 0.1 ms.
const server = await serveFolder(web, {}, { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
const { browser, close } = await launchBrowser();
try {
  const { result, error, errors } = await runPage(browser, `${server.url}/bench/ab.html?builds=${process.argv[2]}&frames=${process.argv[3] ?? 2000}`, 600000);
  if (error || errors.length) throw new Error(error ?? errors.join('\n'));
  console.log(`cross-origin isolated: ${result.crossOriginIsolated}`);
  delete result.crossOriginIsolated;
  for (const [name, r] of Object.entries(result)) {
    console.log(`${name.padEnd(16)} min ${r.min.toFixed(3)} p10 ${r.p10.toFixed(3)} p25 ${r.p25.toFixed(3)} median ${r.median.toFixed(3)} ms (p25 read ${r.readP25.toFixed(3)} step ${r.stepP25.toFixed(3)}) checksum ${r.checksum}`);
  }
} finally {
  await close();
  await server.close();
}
