// An experiment's results, drawn the way the articles draw them, from the table the engine
// streams (a row per queue depth, per spare area or per second): bandwidth and latency against
// queue depth, steady IOPS and write amplification against spare area, rated against
// NAND-limited endurance, or the per-second scatter; every run on the page on one chart; the
// table itself under the charts; and the table as the CLI's CSV. A new experiment is drawn from
// its columns (experimentKind), or shown as a table with a generic chart.

import { memo, useMemo } from 'react';
import { ColumnStore } from '../data/columns';
import { TimeChart, type ChartSeries } from '../charts/TimeChart';
import { XYChart, type LegendItem } from '../charts/XYChart';
import type { BarGroup, XYSeries } from '../charts/xyMarks';
import { download, fileSlug } from '../charts/export';
import type { Cell, ExperimentInfo, ExperimentTable } from '../engine/experimentProtocol';
import type { ExperimentEntry } from '../engine/experiments';
import { formatCount, formatMicros, format1, formatInt } from '../format';
import { consistency } from '../scenarios/consistency';
import { experimentKind, sweepArgs, type ExperimentSettings } from '../settings/experimentState';

/** One run's experiment as the view shows it. */
export interface ExperimentRun {
  key: number;
  name: string;
  color: string;
  entry: ExperimentEntry | null;
}

export interface ExperimentViewProps {
  info: ExperimentInfo;
  settings: ExperimentSettings;
  onPlot(plot: 'mb_s' | 'iops'): void;
  runs: readonly ExperimentRun[];
  focusKey: number;
  height: number;
}

/** Colours of the corners (run colours tell runs apart when there is one corner). */
const CORNER_COLORS = ['var(--run-1)', 'var(--run-2)', 'var(--run-3)', 'var(--run-4)', 'var(--c-teal)', 'var(--c-brown)'];
/** Line patterns of runs 1 to 4 when colours tell corners apart. */
const RUN_DASHES = [undefined, '7 4', '2 3', '9 3 2 3'];

const CORNER_WORDS: Record<string, string> = {
  'sequential-read': '128 KB sequential read',
  'sequential-write': '128 KB sequential write',
  'random-read': '4 KB random read',
  'random-write': '4 KB random write',
  'mixed-70-30': '4 KB random 70/30',
};

/** Readable names of the engine's columns (a column not listed shows its own name). */
export const COLUMN_WORDS: Record<string, string> = {
  corner: 'Corner',
  queue_depth: 'Queue depth',
  iops: 'IOPS',
  mb_s: 'MB/s',
  latency_mean_us: 'Mean latency (µs)',
  latency_p99_us: '99th pct latency (µs)',
  latency_max_us: 'Max latency (µs)',
  read_percent: 'Reads (%)',
  second: 'Second',
  write_amplification: 'Write amplification',
  free_blocks: 'Free blocks',
  gc_moves: 'GC copies',
  span: 'Span',
  advertised_gb: 'Sold as (GB)',
  spare_percent: 'Spare (%)',
  steady_iops_mean: 'Steady IOPS, mean',
  steady_iops_min: 'Steady IOPS, lowest',
  steady_iops_max: 'Steady IOPS, highest',
  steady_spread: 'Steady spread',
  rated_pb: 'Rated (PB)',
  nand_limited_pb: 'NAND-limited (PB)',
  nand_over_rated: 'NAND / rated',
  drive_writes_per_day: 'Drive writes per day',
};

/** Rows drawn in a table (an IO-consistency run has a row per second). */
const MAX_TABLE_ROWS = 300;

const num = (v: Cell | undefined): number => (typeof v === 'number' ? v : NaN);

function column(table: ExperimentTable, name: string): Cell[] {
  const i = table.columns.indexOf(name);
  return i < 0 ? [] : table.rows.map((r) => r[i]);
}

function formatCell(v: Cell): string {
  if (typeof v === 'number') return Number.isInteger(v) ? formatInt(v) : v.toLocaleString('en-US', { maximumFractionDigits: 4 });
  if (v === null) return '';
  return String(v);
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
      {kind === 'other' && <GenericChart {...props} runs={withRows} emptyText={emptyText} columns={columns} />}
      <Tables info={info} runs={runs} focusKey={props.focusKey} />
    </div>
  );
});

type ChartsProps = ExperimentViewProps & { emptyText: string };

function runLabel(runs: readonly ExperimentRun[], r: ExperimentRun, what: string): string {
  return runs.length > 1 ? `${r.name} · ${what}` : what;
}

/** One line per run and corner of a queue-depth table's `field` against queue depth. */
function queueDepthSeries(runs: readonly ExperimentRun[], title: string, field: string): XYSeries[] {
  const out: XYSeries[] = [];
  const corners = [...new Set(runs.flatMap((r) => column(r.entry!.table!, 'corner').map(String)))];
  runs.forEach((r, ri) => {
    const t = r.entry!.table!;
    const cornerCol = column(t, 'corner');
    const qd = column(t, 'queue_depth');
    const ys = column(t, field);
    const groups = corners.length > 0 ? corners : [''];
    groups.forEach((c, ci) => {
      const points = qd
        .map((q, i) => ({ x: num(q), y: num(ys[i]), c: cornerCol.length ? String(cornerCol[i]) : '' }))
        .filter((p) => p.c === c)
        .map(({ x, y }) => ({ x, y }));
      if (points.length === 0) return;
      const oneCorner = groups.length === 1;
      out.push({
        key: `${r.key}-${c}`,
        label: runLabel(runs, r, CORNER_WORDS[c] ?? (c || title)),
        color: oneCorner ? r.color : CORNER_COLORS[ci % CORNER_COLORS.length],
        dash: oneCorner ? undefined : RUN_DASHES[ri % RUN_DASHES.length],
        points,
      });
    });
  });
  return out;
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

/** One line per run of a span table's `field` against spare area (with its range when asked). */
function spanSeries(runs: readonly ExperimentRun[], field: string, range: boolean): XYSeries[] {
  return runs.map((r) => {
    const t = r.entry!.table!;
    const spare = column(t, 'spare_percent');
    const ys = column(t, field);
    const lo = column(t, 'steady_iops_min');
    const hi = column(t, 'steady_iops_max');
    const gb = column(t, 'advertised_gb');
    return {
      key: `${r.key}`,
      label: r.name,
      color: r.color,
      points: spare.map((s, i) => ({
        x: num(s),
        y: num(ys[i]),
        ...(range && lo.length ? { lo: num(lo[i]), hi: num(hi[i]) } : {}),
        note: gb.length ? `${formatInt(num(gb[i]))} GB` : undefined,
      })),
    };
  });
}

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

/** "S3700 200GB, 29% spare, ..." -> "S3700 200GB". */
function shortName(name: string): string {
  return name.split(',')[0];
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

function Tables({ info, runs, focusKey }: { info: ExperimentInfo; runs: readonly ExperimentRun[]; focusKey: number }) {
  const shown = runs.filter((r) => r.entry?.table && r.entry.table.experiment === info.id);
  if (shown.length === 0) return null;
  return (
    <section className="exp-tables" aria-label="The experiment’s table">
      {shown.map((r) => {
        const t = r.entry!.table!;
        const fileName = `${fileSlug(`${info.id} ${r.entry!.request?.drive ?? ''} ${r.key === focusKey ? '' : r.key}`)}.csv`;
        return (
          <div key={r.key} className="exp-table-wrap" data-testid={`exp-table-${r.key}`}>
            <div className="exp-table-head">
              <h3>
                <span className="run-key" style={{ background: r.color }} aria-hidden="true" /> {r.name}: {t.rows.length}{' '}
                {t.rows.length === 1 ? 'row' : 'rows'}
              </h3>
              <button
                type="button"
                disabled={t.rows.length === 0}
                onClick={() => download(r.entry!.csv, fileName, 'text/csv')}
                data-testid={`exp-csv-${r.key}`}
              >
                Table (CSV)
              </button>
            </div>
            {r.entry!.request && (
              <p className="hint">
                The CSV is what <code data-testid={`exp-cli-${r.key}`}>ssdlab sweep {sweepArgs(r.entry!.request).join(' ')}</code> prints.
              </p>
            )}
            <div className="table-scroll" tabIndex={0} role="region" aria-label={`${r.name}: table`}>
              <table className="exp-table">
                <thead>
                  <tr>
                    {t.columns.map((c) => (
                      <th key={c} scope="col" title={c}>
                        {COLUMN_WORDS[c] ?? c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {t.rows.slice(0, MAX_TABLE_ROWS).map((row, i) => (
                    <tr key={i}>
                      {row.map((v, j) => (
                        <td key={j} className={typeof v === 'number' ? 'num' : undefined}>
                          {typeof v === 'string' ? (CORNER_WORDS[v] ?? v) : formatCell(v)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {t.rows.length > MAX_TABLE_ROWS && (
              <p className="hint">
                The first {formatInt(MAX_TABLE_ROWS)} of {formatInt(t.rows.length)} rows; the CSV has them all.
              </p>
            )}
          </div>
        );
      })}
    </section>
  );
}

export default ExperimentView;
