// The live numbers of the run being edited: the last second's IOPS, write amplification and
// latency, engine memory, and the power cuts' outcome. A <dl> so each value is read with its name.

import type { PowerCut } from '../engine/protocol';
import type { Run } from '../engine/run';
import { formatFixed2, formatInt, formatMemory, formatMicros, NONE } from '../format';

export function Readout<S>({ run }: { run: Run<S> | null }) {
  const last = run?.last ?? {};
  const cutsRequested = Array.isArray(run?.ran?.config.power_cuts_s) ? (run!.ran!.config.power_cuts_s as number[]).length : 0;
  const powerCuts = run?.powerCuts ?? [];
  const items: { id: string; label: string; value: string; sub?: string; title?: string }[] = [
    {
      id: 'time',
      label: 'Simulated time',
      value: run?.ran ? `${formatInt(run.secondsDone)} s` : NONE,
      sub: run?.ran ? ` of ${formatInt(run.ran.config.seconds)}` : undefined,
    },
    { id: 'iops', label: 'IOPS (last second)', value: formatInt(last.iops) },
    {
      id: 'wa',
      label: 'Write amplification',
      // 0 means no host data has reached flash yet (a read-only run, or all still buffered): no ratio.
      value: (last.write_amplification ?? 0) > 0 ? formatFixed2(last.write_amplification) : NONE,
      title: 'Flash pages written per page the host wrote, since the start (– until host data reaches flash)',
    },
    { id: 'latency', label: 'Mean latency', value: Number.isFinite(last.mean_latency_us) ? formatMicros(last.mean_latency_us) : NONE },
    { id: 'memory', label: 'Engine memory', value: run && run.memoryBytes > 0 ? formatMemory(run.memoryBytes) : NONE },
  ];
  if (cutsRequested > 0) {
    const done = powerCuts.length;
    const sum = (f: (c: PowerCut) => number) => powerCuts.reduce((a, c) => a + f(c), 0);
    items.push({
      id: 'lost',
      label: 'Writes lost',
      value: done > 0 ? formatInt(sum((c) => c.acknowledged_writes_lost)) : NONE,
      sub: ` ${done} of ${cutsRequested} ${cutsRequested === 1 ? 'cut' : 'cuts'}${done > 0 ? `, map rebuilt in ${formatFixed2(sum((c) => c.rebuild_ms))} ms` : ''}`,
      title: 'Writes the host was told were done that did not survive the power cuts, and the time power-on spent rebuilding the map',
    });
  }
  return (
    <dl className="readout" aria-label="Numbers of the run being edited">
      {items.map((it) => (
        <div className="readout-item" key={it.id} title={it.title}>
          <dt id={`readout-${it.id}-label`}>{it.label}</dt>
          <dd data-testid={`readout-${it.id}`}>
            {it.value}
            {it.sub && <span className="sub">{it.sub}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
