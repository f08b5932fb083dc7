// The placement experiment drawn as its papers compare it: per host and over-provisioning, a
// bar per layout of the drive's write amplification, the host's (its zone cleaner's copies) and
// their product, and the app's MB/s (the ZNS paper's Figure 1).

import { useMemo } from 'react';
import { XYChart, type LegendItem } from '../charts/XYChart';
import { format1 } from '../format';
import type { ExperimentRun } from './experimentTable';
import { LAYOUT_LOOK, placementGroups, placementLayouts } from './placementSeries';

export interface PlacementChartsProps {
  title: string;
  runs: readonly ExperimentRun[];
  height: number;
  emptyText: string;
}

const CHARTS = [
  {
    field: 'write_amplification',
    caption: 'Device write amplification (the drive’s GC copies)',
    yLabel: 'Device WA',
    testId: 'exp-chart-placement-device-wa',
  },
  {
    field: 'host_write_amplification',
    caption: 'Host write amplification (the zone store’s cleaner copies)',
    yLabel: 'Host WA',
    testId: 'exp-chart-placement-host-wa',
  },
  {
    field: 'total_write_amplification',
    caption: 'Total write amplification (host × device)',
    yLabel: 'Total WA',
    testId: 'exp-chart-placement-total-wa',
  },
  {
    field: 'app_mb_s',
    caption: 'The app’s writes (MB/s), as ZNS Figure 1',
    yLabel: 'App MB/s',
    testId: 'exp-chart-placement-mb-s',
  },
] as const;

const wa = (v: number) => String(Number(v.toFixed(2)));
const waValue = (v: number) => String(Number(v.toFixed(3)));

export function PlacementCharts({ title, runs, height, emptyText }: PlacementChartsProps) {
  const layouts = useMemo(() => placementLayouts(runs), [runs]);
  const legend: LegendItem[] = useMemo(
    () =>
      (layouts.length > 0 ? layouts : Object.keys(LAYOUT_LOOK)).map((l) => ({
        key: l,
        label: LAYOUT_LOOK[l]?.label ?? l,
        color: LAYOUT_LOOK[l]?.color ?? 'var(--c-grey)',
        bar: true,
      })),
    [layouts],
  );
  const groups = useMemo(() => CHARTS.map((c) => placementGroups(runs, c.field)), [runs]);
  const h = Math.min(height, 340);
  return (
    <>
      <div className="xy-grid">
        {CHARTS.map((c, i) => (
          <XYChart
            key={c.field}
            kind="bars"
            label={`${title}: ${c.caption.toLowerCase()} per layout, for each host and over-provisioning`}
            caption={c.caption}
            legend={legend}
            xLabel="Host, over-provisioning (OP)"
            yLabel={c.yLabel}
            groups={groups[i]}
            height={h}
            testId={c.testId}
            formatY={c.field === 'app_mb_s' ? format1 : wa}
            formatValue={c.field === 'app_mb_s' ? format1 : waValue}
            emptyText={emptyText}
          />
        ))}
      </div>
      <p className="view-explain" data-testid="placement-explain">
        The same app on the same flash three ways. <strong>Block</strong>: a conventional drive; the app’s writes carry no lifetime, so
        blocks mix data that dies at different times and the drive’s garbage collection copies the survivors (device WA above 1, more with
        less over-provisioning). <strong>FDP</strong>: the same drive, each write tagged with a placement handle, so data that dies together
        shares blocks and GC finds them empty (device WA near 1). <strong>Zoned</strong>: the flash as a zoned drive with no spare of its
        own; the host appends to zones and its own cleaner copies live data before a reset: device WA 1, the copies show as host WA instead.
        Total WA is what the flash wears by.
      </p>
    </>
  );
}
