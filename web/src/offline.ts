// After one visit the site works offline: a service worker (web/offline/sw.js, written into the
// build) caches the app, the wasm engine and the labs, registered once the app's engine is ready. It is registered relative to the page, so
// it works from any sub-path, and only in a production build: Vite's dev server changes files
// under the same names, which a cache would hide.

export function registerOffline(): void {
  if (!('serviceWorker' in navigator)) return;
  if (!import.meta.env.PROD) {
    // A worker left by a build once served at this address would answer for the dev server.
    void navigator.serviceWorker.getRegistrations().then((all) => all.forEach((r) => void r.unregister()));
    return;
  }
  // Called once the engine is ready, and then in an idle moment: the worker's install caches
  // every file of the build, which on a first visit's 2 cores took the CPU from the page's first
  // layouts and the engine's compile (a 50 ms layout task stretched to 150-210 ms beside it).
  if (registered) return;
  registered = true;
  const register = () => void navigator.serviceWorker.register('./sw.js').catch(() => undefined);
  // (Safari before 18 has no requestIdleCallback.)
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(register, { timeout: 5000 });
  else setTimeout(register, 1000);
}

let registered = false;
