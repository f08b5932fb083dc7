// SSD Lab's service worker: after one visit the app (the page, its scripts, the wasm engine and
// the labs) works offline. web/offline/plugin.ts writes it into each build with the build's file
// list and a version that changes with any file, so a new build replaces the old cache. Every
// path is relative to the worker's own folder (its scope), so the site works from any sub-path;
// it asks nothing of any other origin.

const VERSION = '__VERSION__';
/** The build's files, relative to the scope ('./' is the page itself). */
const FILES = __FILES__;
const SCOPE = self.registration.scope;
/** Caches of this copy of the app (a host may serve several copies under different paths). */
const PREFIX = `ssdlab ${new URL(SCOPE).pathname} `;
const CACHE = `${PREFIX}${VERSION}`;
/** Vite names every build file under assets/ by its content's hash: it never changes under its name. */
const HASHED = new URL('assets/', SCOPE).href;
/** How long the page waits for the network before it takes the cached copy. */
const NETWORK_WAIT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(FILES.map((f) => new Request(new URL(f, SCOPE), { cache: 'no-cache' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(SCOPE)) return;
  if (request.mode === 'navigate') event.respondWith(networkFirst(request, pageAddress(request.url)));
  else if (request.url.startsWith(HASHED)) event.respondWith(cacheFirst(request));
  else event.respondWith(networkFirst(request, request.url));
});

/**
 * Where a page is cached: its address without the query, so the app ('./', whatever link opened
 * it), the embed (embed.html) and an article each keep their own copy.
 */
function pageAddress(url) {
  const page = new URL(url);
  page.search = '';
  page.hash = '';
  if (page.pathname.endsWith('/index.html')) page.pathname = page.pathname.slice(0, -'index.html'.length);
  return page.href;
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/**
 * The network's answer when it comes in time (kept for next time), else the cached copy: the
 * page (any query string) for a navigation, the file itself otherwise (labs, the icon).
 */
async function networkFirst(request, cachedAs) {
  const cache = await caches.open(CACHE);
  const network = fetch(request).then(async (response) => {
    if (response.ok && response.type === 'basic') await cache.put(cachedAs, response.clone());
    return response;
  });
  const late = new Promise((resolve) => setTimeout(resolve, NETWORK_WAIT_MS, null));
  try {
    const answer = await Promise.race([network, late]);
    if (answer) return answer;
  } catch {
    // Offline, or the server is gone: the cached copy below.
  }
  const cached = await cache.match(cachedAs, { ignoreSearch: true });
  return cached ?? network;
}
