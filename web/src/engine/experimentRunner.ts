// An experiment worker's loop, kept apart from the wasm import so it can be tested with a fake
// engine. Like a run, the experiment advances in slices of host IOs sized to ~100 ms, giving
// the event loop back between them so pause and stop answer within one slice; the rows completed
// since the last message go to the page at most every SEND_EVERY_MS, and only they (a fill's
// table has a row per second: sending the whole table after every slice made its cost grow with
// the square of its rows).

import {
  isExperimentRequest,
  parsePageToExperiment,
  type ExperimentInfo,
  type ExperimentProgress,
  type ExperimentRequest,
  type Cell,
  type ExperimentState,
  type ExperimentTable,
  type ExperimentToPage,
  type TableFigure,
} from './experimentProtocol';
import { errorMessage, isTrap, nextSliceIos, SLICE_INITIAL_IOS } from './slices';
import { splitEngineError } from './experimentProtocol';

/** The wasm `Experiment` handle. */
/** The page is updated at most this often while an experiment runs: each update redraws its
 * charts, whose main-thread work (and raster) takes CPU from the engine on a 2-core machine. */
export const SEND_EVERY_MS = 250;

export interface EngineExperiment {
  advance(max_ios: number): number;
  finished(): boolean;
  progress_json(): string;
  table_json(): string;
  rows_json(from: number): string;
  figures_json(): string;
  csv(from: number): string;
  free(): void;
}

export interface ExperimentModule {
  experiments(): string;
  Experiment: new (request_json: string) => EngineExperiment;
}

export interface ExperimentHost {
  post(msg: ExperimentToPage): void;
  schedule(fn: () => void): void;
  now(): number;
}

export class ExperimentLoop {
  private exp: EngineExperiment | null = null;
  private state: ExperimentState = 'loading';
  private token = 0;
  private sliceIos = SLICE_INITIAL_IOS;
  private elapsedMs = 0;
  /** Rows already sent to the page. */
  private rowsSent = 0;
  /** Rows completed since then. */
  private rowsWaiting = 0;
  /** When the page was last updated (`host.now()`). */
  private sentAt = -Infinity;

  constructor(
    private readonly engine: ExperimentModule,
    private readonly host: ExperimentHost,
  ) {}

  announce(): void {
    this.host.post({ type: 'ready', experiments: JSON.parse(this.engine.experiments()) as ExperimentInfo[] });
    this.setState('idle');
  }

  getState(): ExperimentState {
    return this.state;
  }

  handle(raw: unknown): void {
    const msg = parsePageToExperiment(raw);
    if (!msg) {
      this.host.post({
        type: 'error',
        message: `The experiment worker received a malformed message: ${errorMessage(raw)}`,
        recoverable: true,
      });
      return;
    }
    if (this.state === 'error' && msg.type !== 'check') {
      this.host.post({ type: 'error', message: 'The engine stopped after an internal error; reload the page.', recoverable: false });
      return;
    }
    switch (msg.type) {
      case 'start':
        this.start(msg.request);
        break;
      case 'check': {
        let problem: { field: string; message: string } | null = null;
        if (this.state !== 'error') {
          try {
            // Building the handle checks the request and plans its points; no drive is built.
            new this.engine.Experiment(JSON.stringify(msg.request)).free();
          } catch (e) {
            if (isTrap(e)) {
              this.fail(e);
            } else {
              problem = splitEngineError(errorMessage(e));
            }
          }
        }
        this.host.post({ type: 'checked', id: msg.id, problem });
        break;
      }
      case 'pause':
        // The page shows where the experiment stopped.
        if (this.state === 'running' && this.exp && this.send(this.exp)) this.setState('paused');
        break;
      case 'resume':
        if (this.state === 'paused') {
          this.setState('running');
          this.scheduleSlice();
        }
        break;
      case 'stop':
        if (this.exp && (this.state === 'running' || this.state === 'paused')) {
          // The rows so far stay on the page, those not sent yet too.
          if (this.rowsWaiting > 0 && !this.send(this.exp)) break;
          this.token++;
          this.drop();
          this.setState('stopped');
        }
        break;
    }
  }

  private start(request: ExperimentRequest): void {
    if (!isExperimentRequest(request)) {
      this.host.post({ type: 'error', message: 'Invalid experiment settings.', recoverable: true });
      return;
    }
    let exp: EngineExperiment;
    try {
      exp = new this.engine.Experiment(JSON.stringify(request));
    } catch (e) {
      if (isTrap(e)) {
        this.fail(e);
        return;
      }
      // A refused request leaves the last results as they are.
      const { field, message } = splitEngineError(errorMessage(e));
      this.host.post({ type: 'error', message: field ? `${field}: ${message}` : message, ...(field ? { field } : {}), recoverable: true });
      return;
    }
    this.token++;
    this.drop();
    this.exp = exp;
    this.elapsedMs = 0;
    this.rowsSent = 0;
    this.rowsWaiting = 0;
    this.sentAt = -Infinity;
    let table: ExperimentTable;
    let figures: TableFigure[];
    let progress: ExperimentProgress;
    try {
      table = JSON.parse(exp.table_json()) as ExperimentTable;
      figures = JSON.parse(exp.figures_json()) as TableFigure[];
      progress = JSON.parse(exp.progress_json()) as ExperimentProgress;
    } catch (e) {
      this.fail(e);
      return;
    }
    this.host.post({ type: 'started', request, progress, columns: table.columns, figures });
    this.setState('running');
    this.scheduleSlice();
  }

  private scheduleSlice(): void {
    const token = this.token;
    this.host.schedule(() => this.slice(token));
  }

  private slice(token: number): void {
    if (token !== this.token || this.state !== 'running' || !this.exp) return;
    const exp = this.exp;
    const ios = this.sliceIos;
    const t0 = this.host.now();
    let finished: boolean;
    try {
      this.rowsWaiting += exp.advance(ios);
      finished = exp.finished();
    } catch (e) {
      this.fail(e);
      return;
    }
    const ms = this.host.now() - t0;
    this.elapsedMs += ms;
    this.sliceIos = nextSliceIos(ios, ms);
    if (finished) {
      const update = this.update(exp);
      if (!update) return;
      this.drop();
      this.host.post({ type: 'finished', ...update, elapsed_ms: this.elapsedMs });
      this.setState('finished');
      return;
    }
    if (t0 + ms - this.sentAt >= SEND_EVERY_MS && !this.send(exp)) return;
    this.scheduleSlice();
  }

  /** The rows completed since the last message, the figures' verdicts and the progress; null
   * (and the loop failed) if the engine did. */
  private update(exp: EngineExperiment): { rows: Cell[][]; figures: TableFigure[]; csv: string; progress: ExperimentProgress } | null {
    try {
      const progress = JSON.parse(exp.progress_json()) as ExperimentProgress;
      const rows = JSON.parse(exp.rows_json(this.rowsSent)) as Cell[][];
      const figures = JSON.parse(exp.figures_json()) as TableFigure[];
      const csv = exp.csv(this.rowsSent);
      this.rowsSent += rows.length;
      this.rowsWaiting = 0;
      return { rows, figures, csv, progress };
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  /** Brings the page up to date: the new rows with the progress, or the progress alone. False if
   * the engine failed. */
  private send(exp: EngineExperiment): boolean {
    this.sentAt = this.host.now();
    if (this.rowsWaiting > 0) {
      const update = this.update(exp);
      if (!update) return false;
      this.host.post({ type: 'rows', ...update, elapsed_ms: this.elapsedMs });
      return true;
    }
    let progress: ExperimentProgress;
    try {
      progress = JSON.parse(exp.progress_json()) as ExperimentProgress;
    } catch (e) {
      this.fail(e);
      return false;
    }
    this.host.post({ type: 'progress', progress, elapsed_ms: this.elapsedMs });
    return true;
  }

  private fail(e: unknown): void {
    this.token++;
    if (isTrap(e)) this.exp = null;
    else this.drop();
    this.setState('error');
    this.host.post({ type: 'error', message: `The engine failed: ${errorMessage(e)}`, recoverable: false });
  }

  private drop(): void {
    const exp = this.exp;
    this.exp = null;
    try {
      exp?.free();
    } catch {
      // gone either way
    }
  }

  private setState(state: ExperimentState): void {
    if (this.state === state) return;
    this.state = state;
    this.host.post({ type: 'state', state });
  }
}
