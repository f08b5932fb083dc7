// Both workers' loops (runner.ts for a run, experimentRunner.ts for an experiment) advance the
// engine in slices of host IOs: how big the next slice is, and what a failure inside one says.

/** Slice sizing: aim for this much engine time per slice, so pause answers quickly. */
const SLICE_TARGET_MS = 100;
export const SLICE_INITIAL_IOS = 150_000;
export const SLICE_MIN_IOS = 2_000;
export const SLICE_MAX_IOS = 400_000;

/** Next slice size from the last one, moving half-way (geometrically) toward the target time. */
export function nextSliceIos(ios: number, ms: number, targetMs = SLICE_TARGET_MS): number {
  if (!(ms > 0)) return Math.min(SLICE_MAX_IOS, ios * 2);
  const ideal = (ios * targetMs) / ms;
  const next = Math.sqrt(ios * ideal);
  return Math.round(Math.min(SLICE_MAX_IOS, Math.max(SLICE_MIN_IOS, next)));
}

/** Runs `fn` once the event loop has had its turn (a page message waiting runs first, so pause
 * and stop answer between slices). Not `setTimeout(fn, 0)`: browsers hold a timer set from a
 * timer nested five deep at least 4 ms, so every slice after the fifth waited 4 ms idle (300
 * slices of a 2000 s run: over a second). */
export function soon(fn: () => void): void {
  waiting.push(fn);
  channel ??= newChannel();
  channel.port2.postMessage(null);
}

const waiting: (() => void)[] = [];
let channel: MessageChannel | null = null;

function newChannel(): MessageChannel {
  const c = new MessageChannel();
  c.port1.onmessage = () => waiting.shift()?.();
  return c;
}

/** A readable sentence from whatever was thrown. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** A wasm trap (a Rust panic with panic=abort) leaves the module unusable; a thrown Error does not. */
export function isTrap(e: unknown): boolean {
  return typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError;
}
