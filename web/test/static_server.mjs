// A static file server on 127.0.0.1 (an ephemeral port) for the browser
// tests: serves a folder, nothing else, and stops with the test.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const kTypes = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.glb': 'model/gltf-binary', '.json': 'application/json',
  '.css': 'text/css', '.png': 'image/png',
};

/**
 * Starts serving `root`, plus `extra` files held in memory ({'/name.glb':
 * Buffer}); resolves to { url, close }. `headers`: added to every file
 * served (e.g. cross-origin isolation, for a page's fine timer).
 */
export function serveFolder(root, extra = {}, headers = {}) {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (extra[urlPath]) {
      res.writeHead(200, { 'content-type': kTypes[extname(urlPath)] ?? 'application/octet-stream' });
      res.end(extra[urlPath]);
      return;
    }
    const path = normalize(join(base, urlPath));
    if (!path.startsWith(base) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': kTypes[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  });
  return new Promise((ok) => {
    server.listen(0, '127.0.0.1', () => {
      ok({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
