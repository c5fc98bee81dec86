// npm run bench: the browser benchmark (bench/bench.js) in headless Debian
// chromium; prints the numbers and checks the target (issue 48): the wasm
// solver (the batch: 1,000 hips matrices read from their posed bones, one
// step of all chains) at least 5x faster per 60 fps frame than three-vrm's
// springbone (its physics and bone writes) on 1,000 chains of 4 bones. The
// adapters' times (bones written through three.js) are printed beside it.
// The ratio is of median blocks: the systems alternate in blocks of 30
// frames, and on a shared machine another job's burst lands on single
// blocks; the mean of all frames is printed too.
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
  console.log(`  ms per frame: mean of all frames; median of the ${result.frames / result.block} blocks of ${result.block}`);
  for (const name of Object.keys(result.msPerFrame)) {
    console.log(`  ${name.padEnd(18)} ${result.msPerFrame[name].toFixed(3)}; ${result.msPerFrameMedianBlock[name].toFixed(3)} ms per frame, ` +
      `${result.nsPerJointStep[name].toFixed(1)} ns per joint-step`);
  }
  for (const name of Object.keys(result.speedup)) {
    console.log(`  three_vrm / ${name}: ${result.speedup[name].toFixed(2)}x; ${result.speedupMedianBlock[name].toFixed(2)}x`);
  }
  const ratio = result.speedupMedianBlock.wasm_batch;
  console.log(`  target: three_vrm / wasm_batch >= ${kTarget}x (median blocks): ${ratio.toFixed(2)}x, ${ratio >= kTarget ? 'met' : 'MISSED'}`);
  process.exitCode = ratio >= kTarget ? 0 : 1;
} finally {
  await close();
  await server.close();
}
