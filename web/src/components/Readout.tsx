// The live numbers: simulated time, the last second's IOPS and write amplification, latency,
// engine memory. A <dl> so each value is read with its name.

import { formatMemory } from '../settings/capacity';
import type { EngineState, PowerCut, RunSummary } from '../engine/protocol';
import type { Latest } from '../hooks/useEngine';

export interface ReadoutProps {
  latest: Latest;
  runSeconds: number | null;
  state: EngineState;
  summary: RunSummary | null;
  /** Power cuts the run asked for, and what those so far did. */
  cutsRequested: number;
  powerCuts: readonly PowerCut[];
}

const nf0 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const nf2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const show = (v: number | undefined, f: Intl.NumberFormat, unit = '') =>
  v === undefined || !Number.isFinite(v) ? '–' : `${f.format(v)}${unit}`;

export function Readout({ latest, runSeconds, state, summary, cutsRequested, powerCuts }: ReadoutProps) {
  const last = latest.last;
  // While running, the last slice's pace; once finished, the whole run's.
  const speed =
    state === 'running'
      ? show(latest.speed, nf0, '×')
      : summary && summary.elapsed_ms > 0
        ? show((summary.seconds_done * 1000) / summary.elapsed_ms, nf0, '×')
        : '–';
  const items: { id: string; label: string; value: string; sub?: string; title?: string }[] = [
    {
      id: 'time',
      label: 'Simulated time',
      value: runSeconds === null ? '–' : `${nf0.format(latest.secondsDone)} s`,
      sub: runSeconds === null ? undefined : ` of ${nf0.format(runSeconds)}`,
    },
    { id: 'iops', label: 'IOPS (last second)', value: show(last.iops, nf0) },
    {
      id: 'wa',
      label: 'Write amplification',
      value: show(last.write_amplification, nf2),
      title: 'NAND pages written per host page written',
    },
    { id: 'latency', label: 'Mean latency', value: show(last.mean_latency_us, nf0, ' µs') },
    {
      id: 'memory',
      label: 'Engine memory',
      value: latest.memoryBytes > 0 ? formatMemory(latest.memoryBytes) : '–',
    },
    {
      id: 'speed',
      label: 'Simulation speed',
      value: speed,
      sub: speed === '–' ? undefined : ' real time',
      title: 'Simulated seconds per second of engine time',
    },
  ];
  if (cutsRequested > 0) {
    const done = powerCuts.length;
    const sum = (f: (c: PowerCut) => number) => powerCuts.reduce((a, c) => a + f(c), 0);
    items.push({
      id: 'lost',
      label: 'Writes lost',
      value: done > 0 ? nf0.format(sum((c) => c.acknowledged_writes_lost)) : '–',
      sub: ` ${done} of ${cutsRequested} ${cutsRequested === 1 ? 'cut' : 'cuts'}${done > 0 ? `, map rebuilt in ${nf2.format(sum((c) => c.rebuild_ms))} ms` : ''}`,
      title: 'Writes the host was told were done that did not survive the power cuts, and the time power-on spent rebuilding the map',
    });
  }
  return (
    <dl className="readout" aria-label="Live readout">
      {items.map((it) => (
        <div className="readout-item" key={it.id} title={it.title}>
          <dt id={`readout-${it.id}-label`}>{it.label}</dt>
          <dd data-testid={`readout-${it.id}`} aria-labelledby={`readout-${it.id}-label`}>
            {it.value}
            {it.sub && <span className="sub">{it.sub}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
