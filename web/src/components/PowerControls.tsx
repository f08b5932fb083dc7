// Power during a run: cut it now, or fail the capacitor bank (and put it back). The outcome of the
// latest cut is told where the buttons are: acknowledged writes lost, the map rebuild, and
// whether the drive had raised its SMART flag for the capacitors.

import { memo } from 'react';
import type { ColumnStore } from '../data/columns';
import type { PowerCut } from '../engine/protocol';
import { formatFixed2, formatInt } from '../format';

export interface PowerControlsProps {
  /** The run can take a cut or a capacitor change now (running or paused). */
  live: boolean;
  capacitorsHealthy: boolean;
  /** The run's drive has a capacitor bank (else the switch has nothing to fail). */
  fitted: boolean;
  onCut(): void;
  onCapacitors(healthy: boolean): void;
  /** A cut asked for whose second has not ended yet (its time, s). */
  pendingAt: number | null;
  latest: PowerCut | null;
  store: ColumnStore;
  /** Rows in the store: the cut's report can arrive before its second's row, so tell it again then. */
  rows: number;
}

export const PowerControls = memo(function PowerControls(props: PowerControlsProps) {
  const cut = props.latest;
  return (
    <div className="power-bar" role="group" aria-label="Power">
      <button
        type="button"
        disabled={!props.live}
        onClick={props.onCut}
        data-testid="cut-power"
        title="Cut power at the host's next command"
      >
        Cut power now
      </button>
      <label className={props.live && props.fitted ? 'switch' : 'switch disabled'}>
        <input
          type="checkbox"
          role="switch"
          checked={props.fitted && props.capacitorsHealthy}
          disabled={!props.live || !props.fitted}
          onChange={(e) => props.onCapacitors(e.target.checked)}
          data-testid="capacitors-switch"
        />
        {props.fitted ? `Capacitors ${props.capacitorsHealthy ? 'healthy' : 'failed'}` : 'No capacitors fitted'}
      </label>
      <p className="power-outcome" aria-live="polite" data-testid="power-outcome">
        {props.pendingAt !== null
          ? `Power cut at ${props.pendingAt.toFixed(3)} s; the outcome follows once that second is over.`
          : cut
            ? outcome(cut, props.store)
            : props.live
              ? props.capacitorsHealthy
                ? 'Cut power to see what the capacitors save; fail them first to see what they protect.'
                : 'The capacitors have failed: the drive finds out at its next self-test and raises its SMART flag.'
              : ''}
      </p>
    </div>
  );
});

/** "Power cut at 123.456 s: 0 acknowledged writes lost, map rebuilt in 812.00 ms, SMART flag not raised." */
function outcome(cut: PowerCut, store: ColumnStore): string {
  const second = Math.floor(cut.at_s);
  let flag = NaN;
  if (store.has('smart_flag') && store.length > 0) {
    const xs = store.column('second');
    const row = xs.indexOf(second);
    if (row >= 0) flag = store.column('smart_flag')[row];
  }
  const smart = Number.isNaN(flag) ? '' : flag > 0 ? ', SMART flag raised (capacitors failed)' : ', SMART flag not raised';
  return (
    `Power cut at ${cut.at_s.toFixed(3)} s: ${formatInt(cut.acknowledged_writes_lost)} acknowledged ` +
    `${cut.acknowledged_writes_lost === 1 ? 'write' : 'writes'} lost, map rebuilt in ${formatFixed2(cut.rebuild_ms)} ms${smart}.`
  );
}
