// Headless Debian chromium driven by puppeteer-core (no browser download:
// the machine's /usr/bin/chromium, or TAILRIG_CHROMIUM). Flags: no sandbox
// (root in CI), no GPU, and no background networking, sync, component
// updates or QUIC, which a closed network refuses; a fresh profile per run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import puppeteer from 'puppeteer-core';

export const chromiumPath = process.env.TAILRIG_CHROMIUM || '/usr/bin/chromium';

/** A skip reason for node:test, or false when the browser is there. */
export const browserSkip = existsSync(chromiumPath) ? false : `needs ${chromiumPath} (apt-get install chromium)`;

/**
 * Launches chromium; resolves to { browser, close }. webgl: software WebGL
 * (SwiftShader through ANGLE), which --disable-gpu alone no longer gives.
 */
export async function launchBrowser({ webgl = false } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'tailrig-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${profile}`,
      ...(webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : [])],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens url, collects console errors and page errors, waits until the page
 * sets window.testResult (or window.testError), returns both.
 */
export async function runPage(browser, url, timeoutMs = 60000) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`http ${r.status()}: ${r.url()}`); });
  page.on('requestfailed', (r) => errors.push(`request: ${r.url()} ${r.failure()?.errorText}`));
  await page.goto(url);
  await page.waitForFunction('window.testResult !== undefined || window.testError !== undefined', { timeout: timeoutMs });
  const { result, error } = await page.evaluate(() => ({ result: window.testResult, error: window.testError }));
  return { page, result, error, errors };
}
