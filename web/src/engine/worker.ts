// The engine worker: loads the wasm module once and hands every message to the Runner.
// The engine never runs on the main thread. The module it loads first has what the first view
// needs; the full one (fio job files, traces) is fetched when a message first needs it.

import init, * as wasm from './pkg/ssdlab_wasm.js';
import type { WorkerToPage } from './protocol';
import { Runner } from './runner';
import { errorMessage, soon } from './slices';

interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', fn: (e: MessageEvent) => void): void;
  addEventListener(type: 'error', fn: (e: ErrorEvent) => void): void;
  addEventListener(type: 'unhandledrejection', fn: (e: PromiseRejectionEvent) => void): void;
}
const scope = self as unknown as WorkerScope;

function post(msg: WorkerToPage, transfer: Transferable[] = []): void {
  scope.postMessage(msg, transfer);
}

let runner: Runner | null = null;
let dead = false;
const early: unknown[] = [];

scope.addEventListener('message', (e) => {
  if (runner) runner.handle(e.data);
  else if (!dead) early.push(e.data);
  else post({ type: 'error', message: 'The engine did not load; reload the page.', recoverable: false });
});
scope.addEventListener('error', (e) => {
  post({ type: 'error', message: `Engine worker error: ${e.message}`, recoverable: false });
});
scope.addEventListener('unhandledrejection', (e) => {
  post({ type: 'error', message: `Engine worker error: ${errorMessage(e.reason)}`, recoverable: false });
});

async function boot(): Promise<void> {
  try {
    await init();
    runner = new Runner(wasm, {
      post,
      schedule: (fn, delayMs) => (delayMs > 0 ? setTimeout(fn, delayMs) : soon(fn)),
      now: () => performance.now(),
      loadFull: async () => {
        const full = await import('./pkg-full/ssdlab_full.js');
        await full.default();
        return full;
      },
    });
  } catch (e) {
    dead = true;
    post({ type: 'state', state: 'error' });
    post({ type: 'error', message: `The engine failed to load: ${errorMessage(e)}`, recoverable: false });
    return;
  }
  runner.announce();
  for (const m of early.splice(0)) runner.handle(m);
}

void boot();
