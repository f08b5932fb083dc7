// A tiny static file server for the embedding tests: it serves one folder on one or more ports,
// each port its own origin (a blog that frames SSD Lab, and a third site that should be ignored).
//
//   node scripts/static-server.mjs FOLDER PORT [PORT...]

import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const [folder, ...ports] = process.argv.slice(2);
if (!folder || ports.length === 0 || ports.some((p) => !/^\d+$/.test(p))) {
  console.error('usage: node scripts/static-server.mjs FOLDER PORT [PORT...]');
  process.exit(2);
}
const root = resolve(folder);
// application/wasm lets the browser compile the engine while it downloads (instantiateStreaming);
// without it the page falls back to a slower compile and says so in the console.
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

function handle(req, res) {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
  // Nothing outside the folder is served.
  if (file !== root && !file.startsWith(root + sep)) {
    res.writeHead(403).end('forbidden');
    return;
  }
  let size;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size, 'cache-control': 'no-store' });
  createReadStream(file).pipe(res);
}

for (const port of ports) {
  createServer(handle).listen(Number(port), '127.0.0.1', () => console.log(`serving ${root} at http://127.0.0.1:${port}/`));
}
