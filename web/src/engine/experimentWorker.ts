// The experiment worker: loads the full wasm module once and hands every message to the loop. One
// worker per experiment on the page (and one more that checks requests as they are edited).

import init, * as wasm from './pkg-full/ssdlab_full.js';
import type { ExperimentToPage } from './experimentProtocol';
import { ExperimentLoop } from './experimentRunner';
import { errorMessage, soon } from './slices';

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', fn: (e: MessageEvent) => void): void;
  addEventListener(type: 'error', fn: (e: ErrorEvent) => void): void;
  addEventListener(type: 'unhandledrejection', fn: (e: PromiseRejectionEvent) => void): void;
}
const scope = self as unknown as WorkerScope;
const post = (msg: ExperimentToPage) => scope.postMessage(msg);

let loop: ExperimentLoop | null = null;
let dead = false;
const early: unknown[] = [];

scope.addEventListener('message', (e) => {
  if (loop) loop.handle(e.data);
  else if (!dead) early.push(e.data);
  else post({ type: 'error', message: 'The engine did not load; reload the page.', recoverable: false });
});
scope.addEventListener('error', (e) => post({ type: 'error', message: `Engine worker error: ${e.message}`, recoverable: false }));
scope.addEventListener('unhandledrejection', (e) =>
  post({ type: 'error', message: `Engine worker error: ${errorMessage(e.reason)}`, recoverable: false }),
);

async function boot(): Promise<void> {
  try {
    await init();
    loop = new ExperimentLoop(wasm, { post, schedule: soon, now: () => performance.now() });
  } catch (e) {
    dead = true;
    post({ type: 'state', state: 'error' });
    post({ type: 'error', message: `The engine failed to load: ${errorMessage(e)}`, recoverable: false });
    return;
  }
  loop.announce();
  for (const m of early.splice(0)) loop.handle(m);
}

void boot();
