// A small static server for the built site (web/dist): tests, screenshots and benchmarks
// serve it on 127.0.0.1 with this. `node web/serve.mjs [port]` (0: any free port) prints
// the address it listens on.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export function serve(root = fileURLToPath(new URL('./dist/', import.meta.url)), port = 0) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!path.startsWith(normalize(root + sep)) && path !== normalize(root)) {
        res.writeHead(403).end();
        return;
      }
      let s = await stat(path).catch(() => null);
      if (s && s.isDirectory()) {
        path = join(path, 'index.html');
        s = await stat(path).catch(() => null);
      }
      if (!s) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        'content-length': s.size,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      createReadStream(path).pipe(res);
    } catch {
      res.writeHead(500).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      resolve({ server, url: `http://127.0.0.1:${p}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { url } = await serve(undefined, Number(process.argv[2] ?? 0));
  console.log(url);
}
