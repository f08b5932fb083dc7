// An experiment's results, drawn the way the articles draw them, from the table the engine
// streams (a row per queue depth, per spare area or per second): bandwidth and latency against
// queue depth, steady IOPS and write amplification against spare area, rated against
// NAND-limited endurance, the per-second scatter, a fill's speed against data written, or each
// placement layout's write amplification; every run on the page on one chart; the
// table itself under the charts; and the table as the CLI's CSV. A new experiment is drawn from
// its columns (experimentKind), or shown as a table with a generic chart.

import { memo, useMemo } from 'react';
import { ColumnStore } from '../data/columns';
import { TimeChart, type ChartSeries } from '../charts/TimeChart';
import { XYChart, type LegendItem } from '../charts/XYChart';
import type { BarGroup } from '../charts/xyMarks';
import type { ExperimentInfo, TableFigure } from '../engine/experimentProtocol';
import { formatCount, formatMicros, format1, formatInt } from '../format';
import { consistency } from '../scenarios/consistency';
import { experimentKind, type ExperimentSettings } from '../settings/experimentState';
import { CORNER_COLORS, queueDepthSeries, RUN_DASHES, shortName, spanSeries } from './experimentSeries';
import { ExperimentTables } from './ExperimentTables';
import { FillCharts, RecoveryCharts } from './CacheCharts';
import { PlacementCharts } from './PlacementCharts';
import { EvidenceList } from '../components/EvidenceList';
import { figureMarkers, placeOf, splitFigures } from './experimentFigures';
import { column, COLUMN_WORDS, CORNER_WORDS, num, type ExperimentRun } from './experimentTable';

export interface ExperimentViewProps {
  info: ExperimentInfo;
  settings: ExperimentSettings;
  onPlot(plot: 'mb_s' | 'iops'): void;
  runs: readonly ExperimentRun[];
  focusKey: number;
  height: number;
}

export const ExperimentView = memo(function ExperimentView(props: ExperimentViewProps) {
  const { info, runs } = props;
  const withRows = runs.filter((r) => r.entry?.table && r.entry.table.experiment === info.id);
  const columns = withRows[0]?.entry?.table?.columns ?? info.columns;
  const kind = experimentKind(columns);
  const emptyText = runs.some((r) => r.entry?.state === 'running' || r.entry?.starting)
    ? 'The first point is running: its rows appear here when it completes.'
    : 'Press Run experiment: the rows appear here as each point completes.';

  return (
    <div className="experiment-view" data-testid="experiment-view" data-kind={kind}>
      {kind === 'queue-depth' && <QueueDepthCharts {...props} runs={withRows} emptyText={emptyText} />}
      {kind === 'span' && <SpanCharts {...props} runs={withRows} emptyText={emptyText} />}
      {kind === 'seconds' && <SecondsChart {...props} runs={withRows} emptyText={emptyText} />}
      {kind === 'fill' && (
        <FillCharts title={info.title} runs={withRows} focusKey={props.focusKey} height={props.height} emptyText={emptyText} />
      )}
      {kind === 'recovery' && (
        <RecoveryCharts title={info.title} runs={withRows} focusKey={props.focusKey} height={props.height} emptyText={emptyText} />
      )}
      {kind === 'placement' && <PlacementCharts title={info.title} runs={withRows} height={props.height} emptyText={emptyText} />}
      {kind === 'other' && <GenericChart {...props} runs={withRows} emptyText={emptyText} columns={columns} />}
      <ExperimentFigures runs={withRows} focusKey={props.focusKey} />
      <ExperimentTables info={info} runs={runs} focusKey={props.focusKey} />
    </div>
  );
});

type ChartsProps = ExperimentViewProps & { emptyText: string };

/** The published figures of the focused run's drive beside its table, with their verdicts. */
function ExperimentFigures({ runs, focusKey }: { runs: readonly ExperimentRun[]; focusKey: number }) {
  const focused = runs.find((r) => r.key === focusKey) ?? runs[0];
  const figures = focused?.entry?.figures ?? NO_FIGURES;
  const drive = focused?.entry?.request?.drive ?? null;
  const evidence = useMemo(() => ({ drive, ...splitFigures(figures) }), [drive, figures]);
  return <EvidenceList evidence={evidence} placeOf={placeOf} />;
}

function QueueDepthCharts(props: ChartsProps) {
  const { runs, info, settings } = props;
  // Colours tell corners apart and line patterns runs: the legend says so in two parts.
  const legend = useMemo((): LegendItem[] | undefined => {
    const corners = [...new Set(runs.flatMap((r) => column(r.entry!.table!, 'corner').map(String)))];
    if (corners.length < 2 || runs.length < 2) return undefined;
    const items: LegendItem[] = corners.map((c, ci) => ({
      key: `c${c}`,
      label: CORNER_WORDS[c] ?? c,
      color: CORNER_COLORS[ci % CORNER_COLORS.length],
    }));
    runs.forEach((r, ri) =>
      items.push({ key: `r${r.key}`, label: r.name, color: 'var(--ink-2)', dash: RUN_DASHES[ri % RUN_DASHES.length] }),
    );
    return items;
  }, [runs]);
  const plot = settings.plot === 'iops' || !info.columns.includes('mb_s') ? 'iops' : 'mb_s';
  const bandwidth = useMemo(() => queueDepthSeries(runs, info.title, plot), [runs, info.title, plot]);
  const mean = useMemo(() => queueDepthSeries(runs, info.title, 'latency_mean_us'), [runs, info.title]);
  const max = useMemo(() => queueDepthSeries(runs, info.title, 'latency_max_us'), [runs, info.title]);
  // The published figures of the focused run's drive, in the colour of the corner they sit on.
  const focused = runs.find((r) => r.key === props.focusKey) ?? runs[0];
  const figures = focused?.entry?.figures ?? NO_FIGURES;
  const markers = useMemo(() => {
    const colorOf = (corner: string) => bandwidth.find((b) => b.key === `${focused?.key}-${corner}`)?.color ?? 'var(--ink-2)';
    return { bandwidth: figureMarkers(figures, plot, colorOf), latency: figureMarkers(figures, 'latency_mean_us', colorOf) };
  }, [figures, plot, bandwidth, focused]);
  const h = Math.min(props.height, 360);
  return (
    <>
      <div className="chart-options">
        <div className="tabs" role="group" aria-label="Bandwidth chart plots">
          {(
            [
              ['mb_s', 'MB/s'],
              ['iops', 'IOPS'],
            ] as const
          ).map(([id, label]) => (
            <button
              key={id}
              type="button"
              className={plot === id ? 'tab active' : 'tab'}
              aria-pressed={plot === id}
              onClick={() => props.onPlot(id)}
              data-testid={`exp-plot-${id}`}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      <div className="xy-grid">
        <XYChart
          kind="lines"
          label={`${info.title}: ${plot === 'mb_s' ? 'bandwidth (MB/s)' : 'IOPS'} against queue depth`}
          caption={`${plot === 'mb_s' ? 'Bandwidth (MB/s)' : 'IOPS'} against queue depth`}
          legend={legend}
          xLabel="Queue depth"
          yLabel={plot === 'mb_s' ? 'MB/s' : 'IOPS'}
          x="log2"
          y="linear"
          series={bandwidth}
          figures={markers.bandwidth}
          height={h}
          testId="exp-chart-bandwidth"
          formatValue={plot === 'mb_s' ? format1 : formatInt}
          emptyText={props.emptyText}
        />
        <XYChart
          kind="lines"
          label={`${info.title}: average latency against queue depth`}
          caption="Average latency against queue depth (log scale)"
          legend={legend}
          xLabel="Queue depth"
          yLabel="µs"
          x="log2"
          y="log"
          series={mean}
          figures={markers.latency}
          height={h}
          testId="exp-chart-latency-mean"
          formatY={formatMicros}
          emptyText={props.emptyText}
        />
        <XYChart
          kind="lines"
          label={`${info.title}: maximum latency against queue depth`}
          caption="Maximum latency against queue depth (log scale)"
          legend={legend}
          xLabel="Queue depth"
          yLabel="µs"
          x="log2"
          y="log"
          series={max}
          height={h}
          testId="exp-chart-latency-max"
          formatY={formatMicros}
          emptyText={props.emptyText}
        />
      </div>
      <p className="view-explain">
        As in the P3700 review: queue depth on a doubling axis. Bandwidth stops growing where the drive’s dies or its link are busy; past
        that point average latency climbs with the queue (Little’s law). Maximum latency, on a log axis, shows the stalls behind garbage
        collection and full queues.
      </p>
    </>
  );
}

const NO_FIGURES: readonly TableFigure[] = [];

function SpanCharts(props: ChartsProps) {
  const { runs, info } = props;
  const endurance = info.columns.includes('rated_pb');
  const h = Math.min(props.height, 360);
  const iops = useMemo(() => (endurance ? [] : spanSeries(runs, 'steady_iops_mean', true)), [runs, endurance]);
  const wa = useMemo(() => spanSeries(runs, 'write_amplification', false), [runs]);
  const groups: BarGroup[] = useMemo(
    () =>
      endurance
        ? runs.flatMap((r) => {
            const t = r.entry!.table!;
            const gb = column(t, 'advertised_gb');
            const rated = column(t, 'rated_pb');
            const nand = column(t, 'nand_limited_pb');
            return gb.map((g, i) => ({
              label: `${formatInt(num(g))} GB${runs.length > 1 ? `\n${shortName(r.name)}` : ''}`,
              short: formatInt(num(g)),
              bars: [
                { key: 'rated', label: 'Rated (JESD218)', color: 'var(--c-grey)', value: num(rated[i]) },
                { key: 'nand', label: 'NAND P/E limit at the measured WA', color: r.color, value: num(nand[i]) },
              ],
            }));
          })
        : [],
    [runs, endurance],
  );
  return (
    <>
      <div className="xy-grid">
        {endurance ? (
          <XYChart
            kind="bars"
            label={`${info.title}: rated and NAND-limited host writes (PB)`}
            caption="Host writes the drive is rated for, and what its NAND allows (PB)"
            legend={[
              { key: 'rated', label: 'Rated (JESD218: drive writes per day × 5 years)', color: 'var(--c-grey)', bar: true },
              ...runs.map((r) => ({
                key: `n${r.key}`,
                label: `NAND P/E limit at the measured WA${runs.length > 1 ? `, ${shortName(r.name)}` : ''}`,
                color: r.color,
                bar: true,
              })),
            ]}
            yLabel="PB written"
            xLabel="Capacity sold as (GB)"
            groups={groups}
            height={h}
            testId="exp-chart-endurance"
            formatY={(v) => String(Number(v.toFixed(2)))}
            formatValue={(v) => `${Number(v.toFixed(3))}`}
            emptyText={props.emptyText}
          />
        ) : (
          <XYChart
            kind="lines"
            label={`${info.title}: steady-state IOPS against spare area`}
            caption="Steady-state IOPS against spare area (bars: lowest to highest second)"
            xLabel="Spare area (% of the flash)"
            yLabel="IOPS"
            x="linear"
            y="linear"
            series={iops}
            height={h}
            testId="exp-chart-steady-iops"
            formatX={(v) => `${format1(v)} %`}
            formatValue={formatInt}
            emptyText={props.emptyText}
          />
        )}
        <XYChart
          kind="lines"
          label={`${info.title}: write amplification against spare area`}
          caption="Write amplification against spare area"
          xLabel="Spare area (% of the flash)"
          yLabel="Write amplification"
          x="linear"
          y="linear"
          series={wa}
          height={h}
          testId="exp-chart-wa"
          formatX={(v) => `${format1(v)} %`}
          formatY={(v) => String(Number(v.toFixed(2)))}
          emptyText={props.emptyText}
        />
      </div>
      <p className="view-explain">
        {endurance
          ? 'As in the S3700 first look: the vendor’s rating (drive writes per day × 5 years, JESD218) beside what the NAND’s P/E cycles allow at the write amplification measured at each spare area. Each point is labelled with the capacity the drive would be sold as.'
          : 'As in the S3500 review: the drive partitioned smaller, each point labelled with the capacity it would be sold as. The bars run from the lowest to the highest steady-state second; more spare area means lower write amplification and higher, tighter IOPS.'}
      </p>
    </>
  );
}

function SecondsChart(props: ChartsProps) {
  const { runs, info } = props;
  const stores = useMemo(
    () =>
      runs.map((r) => {
        const t = r.entry!.table!;
        const numeric = t.columns.filter((_c, i) => t.rows.every((row) => typeof row[i] === 'number'));
        const store = new ColumnStore(numeric, Math.max(16, t.rows.length));
        const n = t.rows.length;
        const data = new Float64Array(numeric.length * n);
        numeric.forEach((c, k) => {
          const i = t.columns.indexOf(c);
          t.rows.forEach((row, j) => (data[k * n + j] = row[i] as number));
        });
        if (n > 0) store.appendColumnMajor(numeric, n, data);
        return { run: r, store };
      }),
    [runs],
  );
  const series: ChartSeries[] = stores.map(({ run, store }) => ({
    field: 'iops',
    kind: 'dots',
    color: run.color,
    label: run.name,
    store,
    key: `exp${run.key}`,
  }));
  const seconds = Math.max(1, ...stores.map((s) => s.store.length));
  const main = stores.find((s) => s.run.key === props.focusKey)?.store ?? stores[0]?.store ?? EMPTY;
  return (
    <>
      <TimeChart
        store={main}
        series={series}
        view={consistency.views[0]}
        runSeconds={seconds}
        xLabel="Time (s)"
        yLabel="IOPS"
        label={`${info.title}: IOPS per second`}
        height={props.height}
        formatY={formatCount}
        formatValue={formatInt}
        testId="exp-chart-seconds"
        emptyText={props.emptyText}
      />
      <p className="view-explain">{consistency.views[0].explain}</p>
    </>
  );
}

const EMPTY = new ColumnStore();

/** An experiment the page has no article chart for: its first numeric column against the next. */
function GenericChart(props: ChartsProps & { columns: readonly string[] }) {
  const { runs, columns, info } = props;
  const numeric = columns.filter((c) => runs.every((r) => column(r.entry!.table!, c).every((v) => typeof v === 'number')));
  const [xField, yField] = numeric;
  const series = useMemo(
    () =>
      xField && yField
        ? runs.map((r) => {
            const t = r.entry!.table!;
            const xs = column(t, xField);
            const ys = column(t, yField);
            return { key: `${r.key}`, label: r.name, color: r.color, points: xs.map((x, i) => ({ x: num(x), y: num(ys[i]) })) };
          })
        : [],
    [runs, xField, yField],
  );
  if (!xField || !yField) return null;
  return (
    <XYChart
      kind="lines"
      label={`${info.title}: ${COLUMN_WORDS[yField] ?? yField} against ${COLUMN_WORDS[xField] ?? xField}`}
      xLabel={COLUMN_WORDS[xField] ?? xField}
      yLabel={COLUMN_WORDS[yField] ?? yField}
      x="linear"
      y="linear"
      series={series}
      height={Math.min(props.height, 360)}
      testId="exp-chart-generic"
      emptyText={props.emptyText}
    />
  );
}

export default ExperimentView;
