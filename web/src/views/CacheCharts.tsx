// The SLC cache's experiments drawn as the reviews draw them: a whole-drive fill's write speed
// against data written (TechPowerUp), with the cache and its folding beside it, and the write
// before and after each rest of an idle-recovery run.

import { useMemo } from 'react';
import { XYChart, type LegendItem } from '../charts/XYChart';
import type { XYSeries } from '../charts/xyMarks';
import type { TableFigure } from '../engine/experimentProtocol';
import { format1, formatInt } from '../format';
import { cacheEndGuides, fillFigureGuides, fillSeries, recoveryGroups, SECOND_LINE_DASH } from './cacheSeries';
import type { ExperimentRun } from './experimentTable';

export interface CacheChartsProps {
  title: string;
  runs: readonly ExperimentRun[];
  focusKey: number;
  height: number;
  emptyText: string;
}

const NO_FIGURES: readonly TableFigure[] = [];

/** Legend: a run per colour, then what each line pattern is. */
function legendOf(
  runs: readonly ExperimentRun[],
  kinds: readonly [string, string | undefined][],
  published: boolean,
  series: readonly XYSeries[],
): LegendItem[] {
  // The runs' swatches as their lines are drawn: dots only while every line has few enough points.
  const dots = series.every((s) => s.dots !== false);
  const items: LegendItem[] = runs.length > 1 ? runs.map((r) => ({ key: `r${r.key}`, label: r.name, color: r.color, dots })) : [];
  const ink = runs.length > 1 ? 'var(--ink-2)' : (runs[0]?.color ?? 'var(--ink-2)');
  kinds.forEach(([label, dash], i) => items.push({ key: `k${i}`, label, color: ink, dash: dash ?? '', dots }));
  if (published) items.push({ key: 'published', label: 'Published figure', color: 'var(--ink-2)', dash: '8 4' });
  return items;
}

export function FillCharts({ title, runs, focusKey, height, emptyText }: CacheChartsProps) {
  const focused = runs.find((r) => r.key === focusKey) ?? runs[0];
  const figures = focused?.entry?.figures ?? NO_FIGURES;
  const speed = useMemo(
    () => [
      ...fillSeries(runs, 'mb_s', 'written by the host'),
      ...fillSeries(runs, 'fold_mb_s', 'folded inside the drive', SECOND_LINE_DASH),
    ],
    [runs],
  );
  const cache = useMemo(
    () => [
      ...fillSeries(runs, 'slc_free_gb', 'room left in the cache'),
      ...fillSeries(runs, 'slc_data_gb', 'waiting to be folded', SECOND_LINE_DASH),
    ],
    [runs],
  );
  // A drive with no SLC cache (rows and not one with room or data in a cache): no cache chart.
  const noCache = cache.some((c) => c.points.length > 0) && !cache.some((c) => c.points.some((p) => p.y > 0));
  const ends = useMemo(() => cacheEndGuides(runs), [runs]);
  // A drive with a thermal model: its temperature over the fill (throttling shows in the speed).
  const heat = useMemo(() => {
    const series = fillSeries(runs, 'temperature_c', 'temperature');
    return series.some((s) => s.points.some((p) => p.y > 0)) ? series : [];
  }, [runs]);
  const published = useMemo(() => fillFigureGuides(figures), [figures]);
  const h = Math.min(height, 380);
  return (
    <>
      <div className="xy-grid">
        <XYChart
          kind="lines"
          label={`${title}: write speed (MB/s) against data written (GB)`}
          caption="Write speed against data written"
          legend={legendOf(
            runs,
            [
              ['written by the host (MB/s)', undefined],
              ['folded from SLC into TLC/QLC (MB/s)', SECOND_LINE_DASH],
            ],
            published.length > 0,
            speed,
          )}
          xLabel="Data written (GB)"
          yLabel="MB/s"
          x="linear"
          y="linear"
          series={speed}
          guides={[...ends, ...published]}
          height={h}
          testId="exp-chart-fill"
          formatX={formatInt}
          formatValue={format1}
          emptyText={emptyText}
        />
        {noCache ? (
          <p className="hint" data-testid="exp-no-cache">
            {runs.length > 1 ? 'These drives have' : 'This drive has'} no SLC cache: every write goes straight to its native cells, so there
            is no cache to draw.
          </p>
        ) : (
          <XYChart
            kind="lines"
            label={`${title}: the SLC cache (GB) against data written (GB)`}
            caption="The SLC cache against data written"
            legend={legendOf(
              runs,
              [
                ['room left in the cache (GB)', undefined],
                ['data in SLC waiting to be folded (GB)', SECOND_LINE_DASH],
              ],
              false,
              cache,
            )}
            xLabel="Data written (GB)"
            yLabel="GB"
            x="linear"
            y="linear"
            series={cache}
            guides={ends}
            height={h}
            testId="exp-chart-cache"
            formatX={formatInt}
            formatValue={format1}
            emptyText={emptyText}
          />
        )}
        {heat.length > 0 && (
          <XYChart
            kind="lines"
            label={`${title}: temperature (°C) against data written (GB)`}
            caption="Temperature against data written"
            xLabel="Data written (GB)"
            yLabel="°C"
            x="linear"
            y="linear"
            series={heat}
            guides={ends}
            height={h}
            testId="exp-chart-heat"
            formatX={formatInt}
            formatValue={format1}
            emptyText={emptyText}
          />
        )}
      </div>
      <p className="view-explain">
        As in TechPowerUp’s reviews: the whole drive written once from a secure erase, 1 MB at a time. Writes are fast while they land in
        the SLC cache (blocks run one bit a cell); once it has no room, they go straight to TLC or QLC, or wait while the drive folds cached
        data into TLC/QLC to make room. A drive whose cache is made of free space has less of it the fuller it gets.
      </p>
    </>
  );
}

export function RecoveryCharts({ title, runs, height, emptyText }: CacheChartsProps) {
  const groups = useMemo(() => recoveryGroups(runs), [runs]);
  // A dirty drive's recovery has a row per state; idle recovery a write before and after each rest.
  const states = runs.some((r) => r.entry?.table?.columns.includes('state'));
  const legend: LegendItem[] = states
    ? runs.map((r) => ({ key: `s${r.key}`, label: r.name, color: r.color, bar: true }))
    : [
        { key: 'before', label: 'Before the rest (the cache filled)', color: 'var(--c-grey)', bar: true },
        ...runs.map((r) => ({
          key: `a${r.key}`,
          label: runs.length > 1 ? `After the rest, ${r.name}` : 'After the rest',
          color: r.color,
          bar: true,
        })),
      ];
  return (
    <>
      <XYChart
        kind="bars"
        label={`${title}: ${states ? 'write speed in each state' : 'write speed before and after each rest'} (MB/s)`}
        caption={states ? 'Write speed in each state (MB/s)' : 'Write speed before the rest and after it (MB/s)'}
        legend={legend}
        yLabel="MB/s"
        xLabel={states ? 'The drive’s state before the measuring write' : 'Rest between the two writes'}
        groups={groups}
        height={Math.min(height, 360)}
        testId="exp-chart-recovery"
        formatValue={format1}
        emptyText={emptyText}
      />
      <p className="view-explain">
        {states
          ? 'As in CDRLabs’ TRIM test: a drive filled and then written at random until garbage collection has no clean blocks, measured dirty, after a rest, after a TRIM of the whole span and a rest, and secure-erased. A rest lets the drive fold and collect; a TRIM tells it which data is gone, so there is nothing to copy.'
          : 'The cache filled by the first write, then a rest, then a short write again: in idle time the drive folds its SLC data into TLC/QLC, so the longer the rest, the more of the second write lands in SLC again, and the faster it is.'}
      </p>
    </>
  );
}
