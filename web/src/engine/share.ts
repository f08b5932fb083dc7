// How much of a core each run's engine worker may use, so that the workers together leave the
// page's main thread a core to find free (issue 19: no main-thread task over 50 ms with four
// runs streaming). The page (RunSet) gives each computing run its share; a worker whose share is
// below 1 rests after each slice, keeping its duty cycle at its share (runner.ts).

/**
 * The cores the engines leave to the page's main thread and the browser's own threads.
 * Measured on 2 cores (docs/BENCHMARKS.md, 2026-11-27, issue 19 line 2: engine shares).
 */
export const CORES_LEFT_TO_PAGE = 0.5;

/** The machine's cores as a whole number, at least 1 (`navigator.hardwareConcurrency` may be missing). */
function coresOf(cores: number): number {
  return Number.isFinite(cores) && cores >= 1 ? Math.floor(cores) : 1;
}

/** The cores the engines may use together: all but the page's, and never less than one. */
function engineBudget(cores: number): number {
  return Math.max(1, coresOf(cores) - CORES_LEFT_TO_PAGE);
}

/**
 * How many runs may erase and fill their drives at once. A fill is one engine call that no rest
 * paces, so it takes a whole core; runs started together fill one after another (RunSet), or
 * four fills at Start would take both cores of a 2-core machine from the page.
 */
export function fillsAtOnce(cores: number): number {
  return Math.max(1, Math.floor(engineBudget(cores)));
}

/** The least share a computing run is given while fills hold the budget (a share must be > 0). */
export const MIN_SHARE = 0.1;

/**
 * Each computing run's share of a core, with `running` runs computing and `filling` runs
 * erasing and filling (a whole core each) on `cores` cores: the engines together use at most
 * `cores - CORES_LEFT_TO_PAGE`, but never less than one core, so a single run always keeps a
 * whole core. With no run computing, 1.
 */
export function shareOf(running: number, cores: number, filling = 0): number {
  const n = Math.floor(running);
  if (!(n >= 1)) return 1; // nothing computes yet: a run about to stream starts unpaced
  return Math.min(1, Math.max(MIN_SHARE, (engineBudget(cores) - filling) / n));
}

/**
 * Schedules a loop's next slice: at once on a whole core, else after the rest its share asks
 * for; at most one pending per run, so a resume during a rest starts no second loop.
 */
export class Pacer {
  /** The fraction of a core the worker may use (the page's `share` message). */
  share = 1;
  private pendingFor: number | null = null;

  constructor(private readonly schedule: (fn: () => void, delayMs: number) => void) {}

  /** Runs `slice` for run `token` after the rest owed for `busyMs` of work (0: at once). */
  next(token: number, busyMs: number, slice: () => void): void {
    if (this.pendingFor === token) return;
    this.pendingFor = token;
    this.schedule(
      () => {
        if (this.pendingFor === token) this.pendingFor = null;
        slice();
      },
      restMs(busyMs, this.share),
    );
  }
}

/** The rest after a slice that kept a worker busy `busyMs`, so busy / (busy + rest) = share (0 < share). */
export function restMs(busyMs: number, share: number): number {
  if (share >= 1 || !(busyMs > 0)) return 0;
  return busyMs * (1 / share - 1);
}
