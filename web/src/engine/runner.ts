// The worker's run loop, kept apart from the wasm import so it can be tested with a fake engine.
//
// The engine runs in slices: advance(~N host IOs), post the finished seconds, then give the
// event loop back so that pause / reset / a new start are answered within one slice (after a
// rest when the worker has less than a whole core: share.ts).

import {
  isSimConfig,
  parsePageMessage,
  type EngineState,
  type PageToWorker,
  type PowerCut,
  type Problem,
  type SimConfig,
  type WorkerToPage,
} from './protocol';
import type { InsideLayout } from '../data/inside';
import {
  answer,
  checkRequest,
  needsFullEngine,
  offerOf,
  ownBuffer,
  withoutFullEngine,
  type EngineModule,
  type ReadyMessage,
  type EngineSimulation,
} from './engineModule';
import { Pacer } from './share';
import { errorMessage, isTrap, nextSliceIos, SLICE_INITIAL_IOS } from './slices';

export interface RunnerHost {
  post(msg: WorkerToPage, transfer?: Transferable[]): void;
  /** Runs `fn` as a new task in `delayMs` (0: as soon as pending messages have been handled). */
  schedule(fn: () => void, delayMs: number): void;
  now(): number;
  /**
   * Loads the full engine module (fio job files and traces: scripts/build-wasm.sh), when the
   * module the Runner was built with lacks them. Absent: the Runner's module has everything.
   */
  loadFull?(): Promise<EngineModule>;
}

/** `advance_inside`'s last second when not stepping. */
const NO_LAST_SECOND = 0xffff_ffff;

export class Runner {
  private sim: EngineSimulation | null = null;
  private state: EngineState = 'loading';
  /** What the module the Runner was built with offers; its sample fields are every slice's columns. */
  private readonly offer: ReadyMessage;
  /** The running request asks for power cuts, and how many have been reported. */
  private watchCuts = false;
  private cutsReported = 0;
  private sliceIos = SLICE_INITIAL_IOS;
  /** Bumped by every start/reset, so a slice scheduled for an older run does nothing. */
  private runToken = 0;
  private readonly pacer: Pacer;
  private elapsedMs = 0;
  /** While stepping: the second at which to pause again. */
  private stepTo: number | null = null;
  /**
   * The latest cut asked for now, until its report arrives: it lands once the programs already
   * booked are done, which can be seconds after the one being stepped, so a step runs to its end.
   */
  private cutAskedAt: number | null = null;
  /** Values per inside row of the running drive. */
  private insideRow = 0;
  /**
   * The module new work goes to: the first module, until a message needs the full one; from
   * then on the full one (a run already going on in the first module goes on there).
   */
  private engine: EngineModule;
  private full: 'no' | 'loading' | 'yes';
  /** Messages that arrived while the full module loads, in order. */
  private readonly waiting: PageToWorker[] = [];

  constructor(
    engine: EngineModule,
    private readonly host: RunnerHost,
  ) {
    this.engine = engine;
    this.full = host.loadFull ? 'no' : 'yes';
    this.offer = offerOf(engine);
    this.pacer = new Pacer(host.schedule);
  }

  /** Tells the page what the engine offers. Call once after construction. */
  announce(): void {
    this.host.post(this.offer);
    this.setState('idle');
  }

  getState(): EngineState {
    return this.state;
  }

  handle(raw: unknown): void {
    const msg = parsePageMessage(raw);
    if (!msg) {
      this.host.post({
        type: 'error',
        message: `The engine worker received a malformed message: ${errorMessage(raw)}`,
        recoverable: true,
      });
      return;
    }
    // While the full module loads, everything waits, so messages keep their order.
    if (this.full === 'loading') {
      this.waiting.push(msg);
      return;
    }
    if (this.full === 'no' && needsFullEngine(msg) && this.state !== 'error') {
      this.waiting.push(msg);
      this.loadFull();
      return;
    }
    this.dispatch(msg);
  }

  /** Fetches the full module, then answers what waited for it. */
  private loadFull(): void {
    this.full = 'loading';
    this.host.loadFull!().then(
      (full) => {
        this.engine = full;
        this.full = 'yes';
        for (const m of this.waiting.splice(0)) this.dispatch(m);
      },
      (e: unknown) => {
        // The first module goes on; what needed the full one is answered with why it failed.
        this.full = 'no';
        const message = `the engine's import module did not load (${errorMessage(e)}); check the connection and try again`;
        for (const m of this.waiting.splice(0)) {
          if (needsFullEngine(m)) this.host.post(withoutFullEngine(m, message));
          else this.dispatch(m);
        }
      },
    );
  }

  private dispatch(msg: PageToWorker): void {
    if (msg.type === 'share') {
      this.pacer.share = msg.share; // in any state: the page sends it when the computing runs change
      return;
    }
    if (this.state === 'error' && msg.type === 'check') {
      // The module cannot be trusted after a crash; the page says so already.
      this.host.post({ type: 'checked', id: msg.id, problem: null });
      return;
    }
    if (this.state === 'error' && msg.type === 'sources') {
      this.host.post({ type: 'sourced', id: msg.id, answer: { ok: false, message: 'the engine stopped after an internal error' } });
      return;
    }
    if (this.state === 'error' && msg.type !== 'reset') {
      this.host.post({
        type: 'error',
        message: 'The engine stopped after an internal error; press Reset to reload it.',
        recoverable: false,
      });
      return;
    }
    switch (msg.type) {
      case 'start':
        this.start(msg.config);
        break;
      case 'check':
      case 'import':
      case 'describe':
      case 'evidence':
      case 'sources':
        this.guard(() => this.host.post(answer(this.engine, msg)));
        break;
      case 'pause':
        this.stepTo = null;
        if (this.state === 'running') this.setState('paused');
        break;
      case 'resume':
        this.stepTo = null;
        if (this.state === 'paused') {
          this.setState('running');
          this.scheduleSlice();
        }
        break;
      case 'step':
        if (!this.sim || (this.state !== 'paused' && this.state !== 'running')) break;
        this.stepTo = this.stepEnd(this.sim.seconds_done() + 1);
        if (this.state === 'paused') {
          this.setState('running');
          this.scheduleSlice();
        }
        break;
      case 'reset':
        this.dropSim();
        this.runToken++;
        if (this.state !== 'error') this.setState('idle');
        break;
      case 'cut_power':
        if (!this.sim) break;
        this.guard(() => {
          const at = this.sim!.cut_power_now();
          if (at >= 0) {
            this.watchCuts = true;
            this.cutAskedAt = at;
            if (this.stepTo !== null) this.stepTo = this.stepEnd(this.stepTo);
          }
          this.host.post({ type: 'cut_asked', at_s: at });
        });
        break;
      case 'capacitors':
        if (this.sim) this.guard(() => this.sim!.set_capacitors_healthy(msg.healthy));
        break;
    }
  }

  /** Runs an engine call; a failure stops the engine as any other would. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.fail(e);
    }
  }

  private start(config: SimConfig): void {
    if (!isSimConfig(config)) {
      this.host.post({ type: 'error', message: 'Invalid run settings.', recoverable: true });
      return;
    }
    // A refused request leaves the current run (and the page's results) as they are.
    let problem: Problem | null;
    try {
      problem = checkRequest(this.engine, config);
    } catch (e) {
      this.fail(e);
      return;
    }
    if (problem) {
      const message = `${problem.field}: ${problem.message}`;
      this.host.post({ type: 'error', message, field: problem.field, recoverable: true });
      return;
    }
    // Free the old run first: one full-size drive model is ~0.5 GB of wasm memory.
    this.dropSim();
    this.runToken++;
    const t0 = this.host.now();
    try {
      this.sim = new this.engine.Simulation(JSON.stringify(config));
    } catch (e) {
      this.sim = null;
      if (isTrap(e)) {
        this.fail(e);
      } else {
        this.setState('idle');
        this.host.post({ type: 'error', message: errorMessage(e), recoverable: true });
      }
      return;
    }
    this.elapsedMs = 0;
    this.stepTo = null;
    this.cutAskedAt = null;
    this.insideRow = (JSON.parse(this.sim.inside_layout()) as InsideLayout).row;
    this.watchCuts = Array.isArray(config.power_cuts_s) && config.power_cuts_s.length > 0;
    this.cutsReported = 0;
    this.host.post({
      type: 'started',
      config,
      parameters: JSON.parse(this.sim.parameters_json()) as Record<string, unknown>,
      memory_bytes: this.sim.memory_bytes(),
      setup_ms: this.host.now() - t0,
      inside_layout: JSON.parse(this.sim.inside_layout()) as InsideLayout,
    });
    this.setState('running');
    this.scheduleSlice();
  }

  /** The next slice, after the rest owed for `busyMs` of work. */
  private scheduleSlice(busyMs = 0): void {
    const token = this.runToken;
    this.pacer.next(token, busyMs, () => this.slice(token));
  }

  private slice(token: number): void {
    if (token !== this.runToken || this.state !== 'running' || !this.sim) return;
    const sim = this.sim;
    const ios = this.sliceIos;
    const t0 = this.host.now();
    let data: Float64Array;
    let inside: Float32Array;
    let latency: Float64Array;
    let secondsDone: number;
    let finished: boolean;
    let memoryBytes: number;
    let cuts: PowerCut[] = [];
    try {
      // A step stops exactly at the end of its second.
      data = sim.advance_inside(ios, this.stepTo ?? NO_LAST_SECOND);
      inside = new Float32Array(sim.inside());
      latency = sim.latency_histogram();
      secondsDone = sim.seconds_done();
      finished = sim.finished();
      memoryBytes = sim.memory_bytes();
      if (this.watchCuts) cuts = JSON.parse(sim.power_cuts_json()) as PowerCut[];
    } catch (e) {
      this.fail(e);
      return;
    }
    const ms = this.host.now() - t0;
    this.elapsedMs += ms;
    // A step's slice ends early, at its second: it says nothing of the engine's pace.
    if (this.stepTo === null) this.sliceIos = nextSliceIos(ios, ms);

    const cols = this.offer.fields.length;
    if (data.length % cols !== 0) {
      this.fail(new Error(`advance() returned ${data.length} values, not a multiple of ${cols} fields`));
      return;
    }
    const n = data.length / cols;
    if (inside.length !== n * this.insideRow) {
      this.fail(new Error(`inside() returned ${inside.length} values for ${n} seconds of ${this.insideRow}`));
      return;
    }
    if (n > 0) {
      const buffer = ownBuffer(data);
      const insideBuffer = inside.buffer as ArrayBuffer;
      const latencyBuffer = ownBuffer(latency);
      this.host.post({ type: 'samples', fields: this.offer.fields, n, buffer, inside: insideBuffer, latency: latencyBuffer }, [
        buffer,
        insideBuffer,
        latencyBuffer,
      ]);
    }
    if (cuts.length > this.cutsReported) {
      this.cutsReported = cuts.length;
      if (this.cutAskedAt !== null && cuts.some((c) => c.at_s >= this.cutAskedAt!)) this.cutAskedAt = null;
      this.host.post({ type: 'power_cuts', cuts });
    }
    this.host.post({
      type: 'progress',
      seconds_done: secondsDone,
      memory_bytes: memoryBytes,
      slice_ios: ios,
      slice_ms: ms,
    });
    if (finished) {
      this.dropSim();
      this.setState('finished');
      this.host.post({
        type: 'finished',
        summary: { seconds_done: secondsDone, elapsed_ms: this.elapsedMs, memory_bytes: memoryBytes },
      });
      return;
    }
    if (this.stepTo !== null && secondsDone >= this.stepTo) {
      this.stepTo = null;
      this.setState('paused');
      return;
    }
    this.scheduleSlice(this.host.now() - t0); // the slice's whole time, posting included
  }

  /** Where a step that would end at `second` ends: later if a cut asked for lands after it. */
  private stepEnd(second: number): number {
    return this.cutAskedAt === null ? second : Math.max(second, Math.floor(this.cutAskedAt) + 1);
  }

  private fail(e: unknown): void {
    const trap = isTrap(e);
    this.runToken++;
    if (trap) {
      // The module's memory may be inconsistent after a trap: don't touch the handle again.
      this.sim = null;
    } else {
      this.dropSim();
    }
    this.setState('error');
    const prefix = trap ? 'The engine crashed' : 'The engine failed';
    this.host.post({ type: 'error', message: `${prefix}: ${errorMessage(e)}`, recoverable: false });
  }

  private dropSim(): void {
    if (!this.sim) return;
    const sim = this.sim;
    this.sim = null;
    try {
      sim.free();
    } catch {
      // Nothing useful to do: the handle is gone either way.
    }
  }

  private setState(state: EngineState): void {
    if (this.state === state) return;
    this.state = state;
    this.host.post({ type: 'state', state });
  }
}
