// SPDX-License-Identifier: MIT
// A static file server for the demo: serves the package folder (web/), so the page loads
// ../index.js and ../dist/*.wasm as a user's site would. Files only, GET and HEAD, nothing
// outside the folder. `npm run demo` in web/ runs it:
//   node demo/serve.mjs [--port 8080] [--host 127.0.0.1]
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', // what WebAssembly.compileStreaming insists on
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

export const webRoot = fileURLToPath(new URL('..', import.meta.url));

/** The MIME type a file is served with (application/octet-stream when unknown). */
export function contentType(file) {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function handler(root) {
  return (req, res) => {
    const send = (status, text, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(405, 'method not allowed\n', { allow: 'GET, HEAD' });
      return;
    }
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      send(400, 'bad path\n');
      return;
    }
    if (rel === '/') {
      send(302, 'the demo is at /demo/\n', { location: '/demo/' });
      return;
    }
    let file = path.join(root, path.normalize(rel));
    if (path.relative(root, file).startsWith('..') || rel.includes('\0')) {
      send(403, 'outside the served folder\n');
      return;
    }
    let st = existsSync(file) ? statSync(file) : null;
    if (st?.isDirectory()) {
      if (!rel.endsWith('/')) {
        send(301, 'moved\n', { location: `${rel}/` });
        return;
      }
      file = path.join(file, 'index.html');
      st = existsSync(file) ? statSync(file) : null;
    }
    if (!st?.isFile()) {
      send(404, `not found: ${rel}\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': contentType(file),
      'content-length': st.size,
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') {
      res.end();
    } else {
      createReadStream(file).pipe(res);
    }
  };
}

/**
 * Starts the server on host:port (port 0: any free one); resolves to { server, url } with url
 * the demo page's address.
 */
export function serve({ root = webRoot, port = 8080, host = '127.0.0.1' } = {}) {
  const server = http.createServer(handler(root));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const a = server.address();
      const h = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({ server, url: `http://${h}:${a.port}/demo/` });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const opts = { port: 8080, host: '127.0.0.1' };
  for (let k = 2; k < process.argv.length; k += 2) {
    const key = process.argv[k].replace(/^--/, '');
    if (!(key in opts) || k + 1 >= process.argv.length) {
      console.error(`usage: node demo/serve.mjs [--port 8080] [--host 127.0.0.1]`);
      process.exit(2);
    }
    opts[key] = key === 'port' ? Number(process.argv[k + 1]) : process.argv[k + 1];
  }
  if (!existsSync(path.join(webRoot, 'dist', 'hitscan-wasm128.wasm'))) {
    console.error('dist/hitscan-wasm128.wasm is missing: run `npm run build` in web/ first');
    process.exit(1);
  }
  const { url } = await serve(opts);
  console.log(`hitscan demo: ${url}  (Ctrl-C stops the server)`);
}
