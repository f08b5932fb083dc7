#!/usr/bin/env node
// `npm run classroom`: serves the built app to a class on the local network and prints the
// addresses students type. Builds first (npm run build) when web/dist is missing or older than
// the sources. Plain Node, no dependencies: a static file server that needs no special headers
// from anyone, as any static host would serve the same files.
//
//   npm run classroom                      port 8080, every network interface
//   npm run classroom -- --port 8081       another port
//   npm run classroom -- --no-build        serve web/dist as it is
//   npm run classroom -- --dir PATH        serve another folder (a copy of web/dist, or a folder holding one)

import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(repo, 'web', 'dist');
/** What the build is made from: newer than the build means build again. */
const SOURCES = ['web/index.html', 'web/src', 'web/offline', 'public', 'engine/core/src', 'engine/core/presets', 'engine/wasm/src', 'package.json', 'vite.config.ts'];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

function fail(message, code = 2) {
  console.error(`classroom: ${message}`);
  process.exit(code);
}

function parseArgs(argv) {
  const opts = { port: 8080, host: '0.0.0.0', dir: DIST, build: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${arg}: needs a value`);
      return argv[++i];
    };
    if (arg === '--port') {
      const raw = value();
      const port = Number(raw);
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port: must be a whole number from 0 (any free port) to 65535 (got "${raw}")`);
      opts.port = port;
    } else if (arg === '--host') opts.host = value();
    else if (arg === '--dir') opts.dir = resolve(value());
    else if (arg === '--no-build') opts.build = false;
    else if (arg === '--help' || arg === '-h') {
      console.log('npm run classroom [-- --port 8080] [--host 0.0.0.0] [--no-build] [--dir web/dist]');
      process.exit(0);
    } else fail(`unknown option "${arg}" (known: --port, --host, --dir, --no-build, --help)`);
  }
  return opts;
}

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((e) => newest(join(path, e))));
}

function buildIfNeeded() {
  const built = join(DIST, 'index.html');
  const stale = !existsSync(built) || SOURCES.some((p) => newest(join(repo, p)) > statSync(built).mtimeMs);
  if (!stale) return;
  console.log('classroom: building the app first (npm run build)…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
  if (r.status !== 0) fail('the build failed; see above', 1);
}

/** A static file server for `root`: GET and HEAD, folders by their index.html, nothing outside root. */
export function serve(root) {
  return createServer((req, res) => {
    const send = (status, text, headers = {}) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'Only GET and HEAD', { Allow: 'GET, HEAD' });
    let url;
    let path;
    try {
      url = new URL(req.url ?? '/', 'http://classroom');
      path = decodeURIComponent(url.pathname);
    } catch {
      return send(400, 'Bad address');
    }
    let file = resolve(root, `.${path}`);
    if (path.includes('\0') || (file !== root && !file.startsWith(root + sep))) return send(404, 'Not found');
    let stat = existsSync(file) ? statSync(file) : null;
    if (stat?.isDirectory()) {
      // A folder's address ends with a slash, so the app's relative paths resolve inside it.
      if (!path.endsWith('/')) return send(301, 'Moved', { Location: `${url.pathname}/${url.search}` });
      file = join(file, 'index.html');
      stat = existsSync(file) ? statSync(file) : null;
    }
    if (!stat?.isFile()) return send(404, 'Not found');
    const modified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000);
    const since = Date.parse(req.headers['if-modified-since'] ?? '');
    const hashed = relative(root, file).split(sep).includes('assets');
    const headers = {
      'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Last-Modified': modified.toUTCString(),
      // Build files under assets/ are named by their content; everything else is asked again.
      'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    if (!Number.isNaN(since) && modified.getTime() <= since) {
      res.writeHead(304, headers);
      return res.end();
    }
    res.writeHead(200, { ...headers, 'Content-Length': stat.size });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
}

/** The IPv4 addresses other computers on the network can reach this one at. */
function lanAddresses() {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
}

function labIds(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'labs', 'index.json'), 'utf8')).labs ?? [];
  } catch {
    return [];
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.build && opts.dir === DIST) buildIfNeeded();
  if (!existsSync(opts.dir)) fail(`${opts.dir}: no such folder (build the app with npm run build)`, 1);
  const server = serve(opts.dir);
  server.on('error', (e) => {
    if (e.code === 'EADDRINUSE') fail(`port ${opts.port} is in use; pick another with --port ${opts.port + 1}`, 1);
    if (e.code === 'EACCES') fail(`port ${opts.port} needs more rights; pick one above 1023 with --port 8080`, 1);
    fail(e.message, 1);
  });
  server.listen(opts.port, opts.host, () => {
    const port = server.address().port;
    const everywhere = opts.host === '0.0.0.0' || opts.host === '::';
    const hosts = everywhere ? lanAddresses() : [opts.host];
    const base = (h) => `http://${h}:${port}/`;
    const labs = labIds(opts.dir);
    const lines = [`SSD Lab is served from ${relative(process.cwd(), opts.dir) || '.'} on port ${port}.`];
    if (hosts.length > 0) {
      lines.push('', 'Students on this network open:', ...hosts.map((h) => `  ${base(h)}`));
      if (labs.length > 0) lines.push('', 'or a lab directly, e.g.:', `  ${base(hosts[0])}?lab=${labs[0]}`, `Labs: ${labs.join(', ')} (the Labs button lists them).`);
    } else {
      lines.push('', 'No network address found: other computers cannot reach this one. Join the classroom network and start again.');
    }
    if (everywhere) lines.push('', `On this computer: ${base('localhost')}`);
    lines.push('After one visit the app also works offline. Press Ctrl+C to stop.');
    console.log(lines.join('\n'));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
