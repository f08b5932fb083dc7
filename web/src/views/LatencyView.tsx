// Latency: the median and the tail percentiles (99, 99.9, 99.99 %) of each second over time, and
// the run's whole latency histogram with those percentiles marked. Loaded when first opened.

import { useEffect, useMemo, useRef } from 'react';
import type { ColumnStore } from '../data/columns';
import { latencyPercentiles, type InsideStore } from '../data/inside';
import type { SeriesSpec } from '../data/panels';
import type { ViewSpec } from '../data/views';
import { TimeChart, type TimeMarker } from '../charts/TimeChart';
import { formatCount, formatMicros, numberFormat } from '../format';
import { prepareCanvas, useVersion, useWidth } from '../hooks/useVersion';
import { colorOf, useTheme } from '../theme';

export interface LatencyViewProps {
  store: ColumnStore;
  inside: InsideStore;
  view: ViewSpec;
  runSeconds: number;
  markers: readonly TimeMarker[];
  onPick?: (second: number) => void;
  picked?: number | null;
}

/** The percentiles each second reports (sample columns) and the histogram marks. */
export const PERCENTILES = [
  { p: 50, field: 'latency_p50_us', label: 'median', color: 'var(--series-1)' },
  { p: 99, field: 'latency_p99_us', label: '99%', color: 'var(--c-teal)' },
  { p: 99.9, field: 'latency_p99_9_us', label: '99.9%', color: 'var(--c-amber)' },
  { p: 99.99, field: 'latency_p99_99_us', label: '99.99%', color: 'var(--c-red)' },
] as const;

const HIST_HEIGHT = 170;
const exact = numberFormat({ maximumFractionDigits: 1 });

export default function LatencyView(props: LatencyViewProps) {
  const series: SeriesSpec[] = useMemo(
    () =>
      PERCENTILES.filter((p) => props.store.has(p.field)).map((p) => ({ field: p.field, kind: 'dots', color: p.color, label: p.label })),
    [props.store],
  );
  const view = useMemo<ViewSpec>(() => ({ ...props.view, y: { kind: 'log' } }), [props.view]);
  return (
    <div className="latency-view" data-testid="latency-view">
      <h3>Latency percentiles per second</h3>
      <ul className="legend">
        {series.map((s) => (
          <li key={s.field}>
            <span className="key dots" style={{ background: s.color }} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
      <TimeChart
        store={props.store}
        series={series}
        markers={props.markers}
        view={view}
        runSeconds={props.runSeconds}
        xLabel="Time (s)"
        yLabel="Latency"
        label="Latency percentiles per second"
        height={220}
        formatY={formatMicros}
        formatValue={(v) => `${exact.format(v)} µs`}
        redrawMs={500}
        style={{ radius: 1.4, hideZeros: true }}
        testId="latency-chart"
        onPick={props.onPick}
        picked={props.picked}
      />
      <LatencyHistogram inside={props.inside} />
    </div>
  );
}

/** Every command of the run so far, by latency (log scale), with the percentiles marked. */
function LatencyHistogram({ inside }: { inside: InsideStore }) {
  useVersion(() => inside.version);
  const theme = useTheme();
  const [box, width] = useWidth<HTMLDivElement>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const triples = inside.latency;
  const marks = latencyPercentiles(
    triples,
    PERCENTILES.map((p) => p.p),
  );
  let total = 0;
  for (let i = 2; i < triples.length; i += 3) total += triples[i];

  useEffect(() => {
    const c = canvas.current;
    if (!c || width === 0) return;
    const ctx = prepareCanvas(c, width, HIST_HEIGHT);
    if (!ctx || triples.length === 0) return;
    const left = 8;
    const plotW = width - 2 * left;
    const plotH = HIST_HEIGHT - 30;
    // Log axis over the decades the latencies span, µs.
    const lo = Math.floor(Math.log10(triples[0] / 1000 || 1));
    const hi = Math.ceil(Math.log10(triples[triples.length - 2] / 1000)) || lo + 1;
    const x = (us: number) => left + ((Math.log10(Math.max(us, 1e-3)) - lo) / Math.max(1, hi - lo)) * plotW;
    // Each bucket's count per unit of log width, so wider buckets are not taller (log y: a tail of
    // one in 10,000 stays visible beside the bulk).
    let max = 0;
    for (let i = 0; i < triples.length; i += 3) max = Math.max(max, triples[i + 2]);
    const y = (n: number) => plotH - (Math.log10(1 + n) / Math.log10(1 + max)) * (plotH - 6);
    ctx.fillStyle = colorOf('var(--c-blue-light)');
    for (let i = 0; i < triples.length; i += 3) {
      const x0 = x(triples[i] / 1000);
      const x1 = x(triples[i + 1] / 1000);
      const top = y(triples[i + 2]);
      ctx.fillRect(x0, top, Math.max(1, x1 - x0), plotH - top);
    }
    ctx.strokeStyle = colorOf('var(--line)');
    ctx.beginPath();
    ctx.moveTo(left, plotH + 0.5);
    ctx.lineTo(width - left, plotH + 0.5);
    ctx.stroke();
    ctx.font = '10px system-ui, sans-serif';
    ctx.fillStyle = colorOf('var(--ink-3)');
    ctx.textBaseline = 'top';
    for (let d = lo; d <= hi; d++) {
      ctx.textAlign = d === lo ? 'left' : d === hi ? 'right' : 'center';
      ctx.fillText(formatMicros(10 ** d), x(10 ** d), plotH + 4);
    }
    // The percentiles, as lines labelled at the top.
    PERCENTILES.forEach((p, k) => {
      const v = marks[k];
      if (!Number.isFinite(v)) return;
      ctx.strokeStyle = colorOf(p.color);
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(x(v) + 0.5, 0);
      ctx.lineTo(x(v) + 0.5, plotH);
      ctx.stroke();
      ctx.setLineDash([]);
    });
    ctx.textAlign = 'left';
    ctx.fillStyle = colorOf('var(--ink-3)');
    ctx.fillText('log count', left, HIST_HEIGHT - 12);
  }, [triples, width, theme, marks]);

  return (
    <figure className="latency-hist">
      <figcaption>
        <strong>Every command of the run by latency</strong> ({formatCount(total)} commands; log scales), with the percentiles marked:
      </figcaption>
      <div ref={box}>
        <canvas
          ref={canvas}
          style={{ width: '100%', height: HIST_HEIGHT }}
          role="img"
          aria-label="Histogram of every command's latency so far, on a log scale, with the percentiles marked"
          data-testid="latency-histogram"
          data-total={total}
        />
      </div>
      <dl className="percentiles" data-testid="latency-percentiles">
        {PERCENTILES.map((p, k) => (
          <div key={p.p}>
            <dt>
              <span className="key line" style={{ background: p.color }} aria-hidden="true" /> {p.label}
            </dt>
            <dd data-testid={`latency-p${String(p.p).replace('.', '_')}`}>{Number.isFinite(marks[k]) ? formatMicros(marks[k]) : '–'}</dd>
          </div>
        ))}
      </dl>
    </figure>
  );
}
