// Inside the drive, one second at a time: what every die on every channel spent the second on,
// the closed blocks by how much of them is still valid (what garbage collection picks its
// victims from), and the blocks by erase count. Live while the run streams (the latest second),
// or the second the "why" panel explains. Loaded when first opened.

import { useEffect, useId, useRef, useState } from 'react';
import { rowOf, type ColumnStore } from '../data/columns';
import { DIE_WORK, type InsideSecond, type InsideStore } from '../data/inside';
import { formatCount, formatInt, formatPercent } from '../format';
import { prepareCanvas, useVersion, useWidth } from '../hooks/useVersion';
import { colorOf, useTheme } from '../theme';
import { HandleBlocks, ZoneBars } from './PlacementInside';

export interface InsideViewProps {
  inside: InsideStore;
  /** The second to show; null: the latest. */
  second: number | null;
  /** The run's per-second columns (the blocks in SLC mode, on a drive with an SLC cache). */
  store?: ColumnStore;
}

const IDLE = { label: 'idle', color: 'var(--line-2)' };
const HIST_HEIGHT = 120;

export default function InsideView({ inside, second, store }: InsideViewProps) {
  const version = useVersion(() => inside.version);
  const theme = useTheme();
  const shown = second ?? inside.lastSecond;
  const layout = inside.layout;
  const members = layout?.members ?? 1;
  const [chosen, setMember] = useState(0);
  const member = Math.min(chosen, members - 1);
  const at = Number.isFinite(shown) ? inside.at(shown, member) : null;
  const memberId = useId();

  if (!layout || !at) {
    const gone = second !== null && Number.isFinite(inside.firstSecond) && second < inside.firstSecond;
    return (
      <p className="hint" data-testid="inside-empty">
        {gone
          ? `Second ${second} is no longer kept (the page keeps the inside of the last ${formatCount(inside.lastSecond - inside.firstSecond + 1)} seconds).`
          : second !== null
            ? `Second ${second} has not been simulated yet.`
            : 'Start a run to see inside the drive, second by second.'}
      </p>
    );
  }

  // An older engine reports fewer kinds (no folding); folding is named only in a second that has it.
  const shares = DIE_WORK.map((_, k) => at.dies.reduce((a, d) => a + Math.min(1, d[k] ?? 0), 0) / at.dies.length);
  const work = DIE_WORK.map((w, k) => ({ ...w, share: shares[k] })).filter((w) => w.id !== 'fold' || w.share > 0);
  const idle = Math.max(0, 1 - shares.reduce((a, b) => a + b, 0));
  const busiest = at.dies.reduce((best, d, i) => (sum(d) > sum(at.dies[best]) ? i : best), 0);
  const closed = at.valid.reduce((a, b) => a + b, 0);
  const emptiest = at.valid.findIndex((c) => c > 0);
  const bins = at.valid.length;

  return (
    <div className="inside" data-testid="inside-view" data-second={shown} data-member={member} data-version={version}>
      <p className="inside-when" data-testid="inside-when">
        {second === null ? `Live: second ${shown}` : `Second ${shown}, the one explained above`}
      </p>
      {members > 1 && (
        <p className="inside-member">
          <label htmlFor={memberId}>Drive of the array</label>{' '}
          <select id={memberId} data-testid="inside-member" value={member} onChange={(e) => setMember(Number(e.target.value))}>
            {Array.from({ length: members }, (_, m) => (
              <option key={m} value={m}>
                {m + 1} of {members}
              </option>
            ))}
          </select>{' '}
          <span className="hint">The stripe deals every stream to all members alike, so each works much like the others.</span>
        </p>
      )}
      {store && <BlockModes store={store} second={shown} total={at.erase.reduce((a, b) => a + b, 0)} />}
      <h3>Every die this second</h3>
      <ul className="legend">
        {[...work, IDLE].map((w) => (
          <li key={w.label}>
            <span className="key band" style={{ background: w.color }} aria-hidden="true" />
            {w.label}
          </li>
        ))}
      </ul>
      <DieGrid at={at} channels={layout.channels} theme={theme} />
      <p className="hint" data-testid="die-summary">
        Across {layout.dies} dies on {layout.channels} channels: {work.map((w) => `${w.label} ${formatPercent(w.share)}`).join(', ')}, idle{' '}
        {formatPercent(idle)}. Busiest: die {busiest} on channel {busiest % layout.channels} (
        {formatPercent(Math.min(1, sum(at.dies[busiest])))} busy).
      </p>
      {at.handleBlocks && <HandleBlocks at={at} theme={theme} />}
      {at.zoneStates && <ZoneBars at={at} states={layout.zone_states ?? []} />}
      <div className="inside-hists">
        <figure>
          <figcaption>
            <strong>Closed blocks by valid pages</strong>: greedy garbage collection takes its victim from the left (the fewest valid pages
            to copy).
          </figcaption>
          <Bars
            counts={at.valid}
            color="var(--c-amber)"
            theme={theme}
            label={`Closed blocks by the share of their pages still valid, ${bins} bins from 0 to 100 percent`}
            left="0% valid"
            right="100%"
            testId="valid-histogram"
          />
          <p className="hint" data-testid="valid-summary">
            {formatCount(closed)} closed blocks
            {emptiest >= 0 &&
              `; the emptiest hold ${Math.round((emptiest * 100) / bins)}–${Math.round(((emptiest + 1) * 100) / bins)}% valid pages`}
            .
          </p>
        </figure>
        <figure>
          <figcaption>
            <strong>Blocks by erase count</strong>: wear levelling keeps the spread narrow.
          </figcaption>
          <Bars
            counts={at.erase}
            color="var(--c-red)"
            theme={theme}
            label={`Blocks by erase count, from ${at.eraseMin} to ${at.eraseMax} erases`}
            left={`${formatCount(at.eraseMin)} erases`}
            right={formatCount(at.eraseMax)}
            testId="erase-histogram"
          />
          <p className="hint" data-testid="erase-summary">
            Least erased block {formatCount(at.eraseMin)}, most {formatCount(at.eraseMax)}.
          </p>
        </figure>
      </div>
    </div>
  );
}

/**
 * A drive with an SLC cache: its blocks by mode at the end of the second. The cache is made of
 * blocks run one bit a cell; the drive takes them from the free ones and gives them back folded.
 */
function BlockModes({ store, second, total }: { store: ColumnStore; second: number; total: number }) {
  const row = store.has('slc_blocks') ? rowOf(store, second) : -1;
  const slc = row >= 0 ? store.column('slc_blocks')[row] : 0;
  if (!(slc > 0) || !(total > 0)) return null;
  const free = store.has('free_blocks') ? Math.min(total - slc, store.column('free_blocks')[row]) : 0;
  const parts = [
    { label: 'SLC mode (the cache)', count: slc, color: 'var(--c-pink)' },
    { label: 'TLC/QLC mode, written', count: Math.max(0, total - slc - free), color: 'var(--c-teal)' },
    { label: 'free', count: free, color: 'var(--line-2)' },
  ];
  return (
    <>
      <h3>Blocks by mode</h3>
      <div
        className="mode-bar"
        role="img"
        aria-label={parts.map((p) => `${p.label}: ${formatInt(p.count)}`).join(', ')}
        data-testid="block-modes"
      >
        {parts.map((p) => (
          <span key={p.label} style={{ width: `${(100 * p.count) / total}%`, background: p.color }} />
        ))}
      </div>
      <p className="hint" data-testid="block-modes-summary">
        {parts.map((p) => `${p.label} ${formatInt(p.count)} (${formatPercent(p.count / total)})`).join(', ')} of {formatInt(total)} blocks.
      </p>
    </>
  );
}

function sum(a: Float32Array): number {
  let s = 0;
  for (const v of a) s += v;
  return s;
}

/** Channels side by side, each channel's dies stacked under it; each die a bar of its second. */
function DieGrid({ at, channels, theme }: { at: InsideSecond; channels: number; theme: string }) {
  const [box, width] = useWidth<HTMLDivElement>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const perChannel = Math.ceil(at.dies.length / channels);
  const cell = Math.max(4, Math.min(48, Math.floor((width - 8) / channels)));
  const rowH = Math.max(10, Math.min(22, Math.round(cell * 0.6)));
  const height = perChannel * rowH + 16;
  useEffect(() => {
    const c = canvas.current;
    if (!c || width === 0) return;
    const ctx = prepareCanvas(c, width, height);
    if (!ctx) return;
    const colors = DIE_WORK.map((w) => colorOf(w.color));
    const idle = colorOf(IDLE.color);
    const gap = cell > 8 ? 2 : 1;
    at.dies.forEach((d, die) => {
      const x = (die % channels) * cell;
      const y = Math.floor(die / channels) * rowH;
      const w = cell - gap;
      const h = rowH - gap;
      ctx.fillStyle = idle;
      ctx.fillRect(x, y, w, h);
      // Each kind's share of the second, left to right (booked time past 1 is cut off).
      let from = 0;
      d.forEach((share, k) => {
        const to = Math.min(1, from + share);
        ctx.fillStyle = colors[k];
        ctx.fillRect(x + from * w, y, (to - from) * w, h);
        from = to;
      });
    });
    ctx.fillStyle = colorOf('var(--ink-3)');
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'bottom';
    ctx.fillText(`channel 0 … ${channels - 1} (left to right), dies top to bottom`, 0, height);
  }, [at, width, height, cell, rowH, channels, theme]);
  return (
    <div ref={box} className="die-grid">
      <canvas
        ref={canvas}
        style={{ width: '100%', height }}
        role="img"
        aria-label={`${at.dies.length} dies on ${channels} channels, each coloured by what it spent second ${at.second} on`}
        data-testid="die-grid"
      />
    </div>
  );
}

function Bars(props: { counts: Float32Array; color: string; theme: string; label: string; left: string; right: string; testId: string }) {
  const [box, width] = useWidth<HTMLDivElement>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const { counts, color, theme } = props;
  useEffect(() => {
    const c = canvas.current;
    if (!c || width === 0) return;
    const ctx = prepareCanvas(c, width, HIST_HEIGHT);
    if (!ctx) return;
    const plotH = HIST_HEIGHT - 16;
    const max = Math.max(1, ...counts);
    const bw = width / counts.length;
    ctx.fillStyle = colorOf(color);
    counts.forEach((n, i) => {
      // A bin with any blocks stays visible beside the tallest.
      const h = n > 0 ? Math.max(1, (n / max) * (plotH - 12)) : 0;
      ctx.fillRect(i * bw + 0.5, plotH - h, Math.max(1, bw - 1), h);
    });
    ctx.fillStyle = colorOf('var(--ink-3)');
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    ctx.fillText(`${formatCount(max)} blocks`, 0, 0);
    ctx.textBaseline = 'bottom';
    ctx.fillText(props.left, 0, HIST_HEIGHT);
    ctx.textAlign = 'right';
    ctx.fillText(props.right, width, HIST_HEIGHT);
    ctx.strokeStyle = colorOf('var(--line)');
    ctx.beginPath();
    ctx.moveTo(0, plotH + 0.5);
    ctx.lineTo(width, plotH + 0.5);
    ctx.stroke();
  }, [counts, color, width, theme, props.left, props.right]);
  return (
    <div ref={box}>
      <canvas
        ref={canvas}
        style={{ width: '100%', height: HIST_HEIGHT }}
        role="img"
        aria-label={props.label}
        data-testid={props.testId}
        data-total={counts.reduce((a, b) => a + b, 0)}
      />
    </div>
  );
}
