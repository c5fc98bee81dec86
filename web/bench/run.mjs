// npm run bench: the browser benchmark (bench/bench.js) in headless Debian
// chromium; prints the numbers and checks the target: the wasm solver, as
// an app runs it (the three.js adapter), at least 5x faster per 60 fps
// frame than three-vrm's springbone on 1,000 chains of 4 bones.
// Exit 0 target met, 1 missed, 77 no browser.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { browserSkip, launchBrowser, runPage } from '../test/browser.mjs';
import { serveFolder } from '../test/static_server.mjs';

const kTarget = 5;
if (browserSkip) {
  console.log(`SKIP: the benchmark ${browserSkip}`);
  process.exit(77);
}
const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const server = await serveFolder(web);
const { browser, close } = await launchBrowser();
try {
  const { result, error, errors } = await runPage(browser, `${server.url}/bench/bench.html${process.argv[2] ? `?${process.argv[2]}` : ''}`, 300000);
  if (error || errors.length) throw new Error(error ?? errors.join('\n'));
  const version = await browser.version();
  console.log(`${version}, ${result.chains} chains x ${result.bonesPerChain} bones, ${result.frames} frames of 1/60 s`);
  for (const name of Object.keys(result.msPerFrame)) {
    console.log(`  ${name.padEnd(13)} ${result.msPerFrame[name].toFixed(3)} ms per frame, ${result.nsPerJointStep[name].toFixed(1)} ns per joint-step`);
  }
  console.log(`  three-vrm / wasm: ${result.speedup.solver.toFixed(2)}x (solver alone), ${result.speedup.adapter.toFixed(2)}x (three.js adapter); target ${kTarget}x`);
  process.exitCode = result.speedup.adapter >= kTarget ? 0 : 1;
} finally {
  await close();
  await server.close();
}
