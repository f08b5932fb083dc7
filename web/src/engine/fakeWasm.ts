// The run worker's tests' engine (runner.test.ts), so they need no wasm build.

import type { EngineModule, EngineSimulation } from './engineModule';
import type { Evidence } from './evidence';

export const FIELDS = ['second', 'iops', 'write_amplification'];
export const INSIDE_ROW = 6 + 2 + 2 + 2;
const CUT = {
  acknowledged_writes_lost: 0,
  writes_at_risk: 4,
  flushed_units: 4,
  energy_needed_uj: 1,
  energy_stored_uj: 2,
  rebuild_ms: 3,
};

/** A published figure as `evidence()` gives it: a mean of 1000 IOPS over a whole run of `seconds`. */
export function meanFigure(seconds: number, patch: Partial<Evidence> = {}): Evidence {
  return {
    figure: 'mean',
    source: '[000] 1,000 IOPS',
    cites: ['a review'],
    says: '1,000 IOPS',
    measure: 'mean',
    expected: '1,000 ± 15 %',
    target: 1000,
    window_from_s: 0,
    seconds,
    not_comparable: null,
    simulated: null,
    holds: null,
    ...patch,
  };
}

/** A stand-in for the wasm module: 1000 host IOs per simulated second, 1 ms per 1000 IOs. */
export function fakeEngine(clock: { t: number }) {
  const live = new Set<FakeSim>();
  class FakeSim implements EngineSimulation {
    done = 0;
    ios = 0;
    freed = false;
    readonly seconds: number;
    readonly cuts: number[];
    rows = 0;
    healthy = true;
    /** How far past the seconds done a cut asked now lands (the programs booked before it). */
    cutDelay = 0.5;
    constructor(json: string) {
      const c = JSON.parse(json);
      if (c.drive === 'trap') throw new WebAssembly.RuntimeError('unreachable');
      this.seconds = c.seconds;
      this.cuts = c.power_cuts_s ?? [];
      live.add(this);
    }
    advance_inside(maxIos: number, lastSecond: number): Float64Array {
      if (this.freed) throw new Error('null pointer passed to rust');
      // Stops at the end of `lastSecond` when that comes before the IOs run out.
      const ios = Math.min(maxIos, Math.max(0, Math.min(lastSecond, this.seconds) * 1000 - this.ios));
      clock.t += ios / 1000;
      this.ios += ios;
      const n = Math.min(Math.floor(this.ios / 1000), this.seconds) - this.done;
      this.rows = n;
      const out = new Float64Array(FIELDS.length * n);
      for (let i = 0; i < n; i++) {
        const s = ++this.done;
        out[i] = s;
        out[n + i] = s === 5 ? 0 : 1000;
        out[2 * n + i] = 1 + s / 10;
      }
      return out;
    }
    inside() {
      return new Float64Array(this.rows * INSIDE_ROW).fill(this.healthy ? 0.5 : 0);
    }
    inside_layout() {
      return JSON.stringify({ dies: 1, channels: 1, kinds: ['a', 'b', 'c', 'd', 'e', 'f'], valid_bins: 2, erase_bins: 2, row: INSIDE_ROW });
    }
    latency_histogram() {
      return new Float64Array([1000, 1100, this.done]);
    }
    cut_power_now() {
      if (this.done >= this.seconds) return -1;
      const at = this.done + this.cutDelay;
      this.cuts.push(at);
      return at;
    }
    set_capacitors_healthy(healthy: boolean) {
      this.healthy = healthy;
    }
    seconds_done() {
      return this.done;
    }
    finished() {
      return this.done >= this.seconds;
    }
    memory_bytes() {
      return 4096;
    }
    parameters_json() {
      return JSON.stringify({ 'geometry.dies': 33 });
    }
    power_cuts_json() {
      // One report per requested cut already passed.
      const cuts = (this.cuts as number[]).filter((at) => at < this.done);
      return JSON.stringify(cuts.map((at) => ({ ...CUT, at_s: at })));
    }
    free() {
      this.freed = true;
      live.delete(this);
    }
  }
  const engine: EngineModule = {
    presets: () => JSON.stringify([{ id: 's3700-200' }]),
    workloads: () => JSON.stringify([{ id: 'consistency', description: 'd', block_bytes: 4096, queue_depth: 32, read_percent: 0 }]),
    run_request_fields: () => JSON.stringify({ drive: 's3700-200', seconds: 2000, set: {} }),
    check_request: (json: string) => {
      const c = JSON.parse(json);
      return JSON.stringify(
        c.span > 0.01 && c.span <= 1 ? { ok: true } : { ok: false, field: 'span', message: `must be between 0.01 and 1.0 (got ${c.span})` },
      );
    },
    sample_fields: () => JSON.stringify(FIELDS),
    fio_import: (json: string) =>
      JSON.stringify(
        JSON.parse(json).fio.includes('bs=4x') ? { ok: false, field: 'fio', message: 'line 3: bs=4x' } : { ok: true, phases: [] },
      ),
    trace_summary: (text: string) => JSON.stringify({ ok: true, records: text.split('\n').length }),
    parameter_info: (drive: string) =>
      JSON.stringify(
        drive === 's3700-200'
          ? [{ path: 'gc.paced_percent', kind: 'whole', range: 'must be between 10 and 1000', min: 10, max: 1000, value: 92 }]
          : [],
      ),
    preset_sources: (drive: string) => JSON.stringify(drive === 's3700-200' ? { 'geometry.dies': 'the datasheet: 33 dies' } : {}),
    // One figure: the mean IOPS of a whole run over the full span.
    evidence: (json: string, iops: Float64Array) => {
      const c = JSON.parse(json);
      const comparable = c.span === 1;
      const complete = comparable && iops.length >= c.seconds;
      const mean = iops.reduce((a, b) => a + b, 0) / Math.max(1, iops.length);
      const figure = meanFigure(c.seconds, {
        not_comparable: comparable ? null : 'spare area: the figure’s run tests 100 % of the drive',
        simulated: complete ? mean : null,
        holds: complete ? Math.abs(mean - 1000) <= 150 : null,
      });
      return JSON.stringify({ ok: true, figures: [figure] });
    },
    Simulation: FakeSim,
  };
  return { engine, live };
}
