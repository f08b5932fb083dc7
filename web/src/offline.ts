// After one visit the site works offline: a service worker (web/offline/sw.js, written into the
// build) caches the app, the wasm engine and the labs. It is registered relative to the page, so
// it works from any sub-path, and only in a production build: Vite's dev server changes files
// under the same names, which a cache would hide.

export function registerOffline(): void {
  if (!('serviceWorker' in navigator)) return;
  if (!import.meta.env.PROD) {
    // A worker left by a build once served at this address would answer for the dev server.
    void navigator.serviceWorker.getRegistrations().then((all) => all.forEach((r) => void r.unregister()));
    return;
  }
  // Once the page has loaded, so caching the rest never competes with the first load.
  const register = () => void navigator.serviceWorker.register('./sw.js').catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
