// The engine's objections to the edited settings as they are edited: after a quiet moment the
// engine is asked whether it accepts the edited run's request (and its experiment's), so its
// message, naming the control, shows beside the control before Start is pressed; and each drive's
// parameters are asked for once, with what each accepts.

import type { ExperimentSet } from '../engine/experiments';
import type { SimConfig } from '../engine/protocol';
import type { RunSet } from '../engine/runs';
import { refineProblem } from '../settings/problems';
import { experimentRequestFor, runRequest } from '../settings/runSetup';
import type { RunSettings } from '../settings/urlState';
import type { PageState } from './state';

/** Quiet time after a change before the engine is asked whether it accepts the settings. */
export const CHECK_DELAY_MS = 150;

type Answer = Partial<Pick<PageState, 'problem' | 'experimentProblem' | 'parameterInfo'>>;

export class EditChecks {
  /** The requests last sent to be checked, and the timers that will send the next. */
  private checked = { run: '', experiment: '' };
  private readonly timers = new Map<'run' | 'experiment', ReturnType<typeof setTimeout>>();
  /** Drives whose parameters were asked of the engine, and what it said. */
  private readonly described = new Set<string>();
  private parameterInfo: PageState['parameterInfo'] = {};
  /** What the last follow() saw: a run's progress changes none of it, and needs no new check. */
  private seen: readonly unknown[] = [];

  constructor(
    private readonly runs: RunSet<RunSettings>,
    private readonly experiments: ExperimentSet,
    private readonly answer: (patch: Answer) => void,
  ) {}

  /** Checks the edited settings of `s` unless they were checked as they are (engine loaded). */
  follow(s: PageState): void {
    const setup = s.runs.find((r) => r.id === s.focusId)?.setup;
    const catalog = s.catalog;
    if (!setup || !catalog) return;
    const seen = [setup, catalog, s.experiment];
    if (seen.every((x, i) => x === this.seen[i])) return;
    this.seen = seen;
    const request = runRequest(setup, catalog);
    const runKey = JSON.stringify(request);
    if (runKey !== this.checked.run) {
      this.checked.run = runKey;
      this.later('run', async () => {
        const check = (c: SimConfig) => this.runs.check(c);
        const p = await check(request);
        const problem = p ? await refineProblem(p, request, check) : null;
        if (this.checked.run === runKey) this.answer({ problem });
      });
    }
    const info = catalog.experiments.find((e) => e.id === s.experiment.id);
    const expRequest = info ? experimentRequestFor(setup, s.experiment, info, catalog) : null;
    const expKey = expRequest ? JSON.stringify(expRequest) : '';
    if (expKey !== this.checked.experiment) {
      this.checked.experiment = expKey;
      if (!expRequest) this.answer({ experimentProblem: null });
      else
        this.later('experiment', async () => {
          const problem = await this.experiments.check(expRequest);
          if (this.checked.experiment === expKey) this.answer({ experimentProblem: problem });
        });
    }
    const drive = setup.drive;
    if (!this.described.has(drive)) {
      this.described.add(drive);
      void this.runs.describe(drive).then((list) => {
        if (list.length === 0) return this.described.delete(drive);
        this.parameterInfo = { ...this.parameterInfo, [drive]: list };
        this.answer({ parameterInfo: this.parameterInfo });
      });
    }
  }

  /** Forgets what was checked (the engine is going away; it is asked again when back). */
  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.checked = { run: '', experiment: '' };
    this.seen = [];
    this.described.clear();
  }

  /** Runs `fn` after a quiet moment, instead of the one of its kind still waiting. */
  private later(kind: 'run' | 'experiment', fn: () => Promise<void>): void {
    clearTimeout(this.timers.get(kind));
    this.timers.set(
      kind,
      setTimeout(() => {
        this.timers.delete(kind);
        void fn();
      }, CHECK_DELAY_MS),
    );
  }
}
