// Inside a drive that places data (issue 21): each die's written blocks by placement handle (an
// FDP drive), and each zone's state and write pointer (a zoned drive). Shown by InsideView only
// on drives whose inside rows carry them, so other drives' view is unchanged.

import { useEffect, useRef } from 'react';
import type { InsideSecond } from '../data/inside';
import { formatInt, formatPercent } from '../format';
import { prepareCanvas, useWidth } from '../hooks/useVersion';
import { colorOf } from '../theme';

/** Handle 0 keeps the colour written blocks have elsewhere; the others in turn from the series. */
const HANDLE_COLORS = [
  'var(--c-teal)',
  'var(--series-1)',
  'var(--c-violet)',
  'var(--c-green)',
  'var(--c-pink)',
  'var(--c-red)',
  'var(--c-grey)',
  'var(--c-blue-light)',
  'var(--c-violet-dark)',
  'var(--c-violet-light)',
];
/** The shared GC stream's blocks: relocated data of every handle mixed (initial isolation). */
const MIXED = { label: 'mixed (GC copies)', color: 'var(--c-amber)' };

/** Handle h's name and colour; the last of `handles + 1` entries is the shared GC stream's. */
export function handleKeys(handles: number): { label: string; color: string }[] {
  return [...Array.from({ length: handles }, (_, h) => ({ label: `handle ${h}`, color: HANDLE_COLORS[h % HANDLE_COLORS.length] })), MIXED];
}

const ROW_H = 12;

/** Per die a bar of its open and closed blocks by handle, dies left to right in rows. */
export function HandleBlocks({ at, theme }: { at: InsideSecond; theme: string }) {
  const perDie = at.handleBlocks!;
  const keys = handleKeys(perDie[0].length - 1);
  const totals = keys.map((_, h) => perDie.reduce((a, d) => a + d[h], 0));
  const all = totals.reduce((a, b) => a + b, 0);
  const [box, width] = useWidth<HTMLDivElement>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const perRow = Math.max(1, Math.min(perDie.length, Math.floor(width / 40)));
  const rows = Math.ceil(perDie.length / perRow);
  const height = rows * ROW_H + 14;
  useEffect(() => {
    const c = canvas.current;
    if (!c || width === 0) return;
    const ctx = prepareCanvas(c, width, height);
    if (!ctx) return;
    const colors = keys.map((k) => colorOf(k.color));
    const cell = width / perRow;
    perDie.forEach((d, die) => {
      const x = (die % perRow) * cell;
      const y = Math.floor(die / perRow) * ROW_H;
      const n = d.reduce((a, b) => a + b, 0);
      ctx.fillStyle = colorOf('var(--line-2)');
      ctx.fillRect(x, y, cell - 2, ROW_H - 2);
      let from = 0;
      d.forEach((count, h) => {
        if (!(n > 0)) return;
        const w = ((cell - 2) * count) / n;
        ctx.fillStyle = colors[h];
        ctx.fillRect(x + from, y, w, ROW_H - 2);
        from += w;
      });
    });
    ctx.fillStyle = colorOf('var(--ink-3)');
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'bottom';
    ctx.fillText(`die 0 … ${perDie.length - 1}, each bar its written blocks by handle`, 0, height);
    // keys is rebuilt from perDie each render: its length is what matters.
  }, [perDie, width, height, perRow, theme, keys.length]); // eslint-disable-line react-hooks/exhaustive-deps
  const shown = keys.map((k, h) => ({ ...k, count: totals[h] })).filter((k, h) => k.count > 0 || h === 0);
  return (
    <>
      <h3>Blocks by placement handle</h3>
      <ul className="legend" data-testid="handle-legend">
        {keys.map((k) => (
          <li key={k.label}>
            <span className="key band" style={{ background: k.color }} aria-hidden="true" />
            {k.label}
          </li>
        ))}
      </ul>
      <div ref={box} className="die-grid">
        <canvas
          ref={canvas}
          style={{ width: '100%', height }}
          role="img"
          aria-label={`${perDie.length} dies, each with its written blocks coloured by placement handle`}
          data-testid="handle-grid"
          data-total={all}
        />
      </div>
      <p className="hint" data-testid="handle-summary">
        Written blocks (open and closed) on all dies:{' '}
        {shown.map((k) => `${k.label} ${formatInt(k.count)} (${formatPercent(all > 0 ? k.count / all : 0)})`).join(', ')}. A handle’s blocks
        hold only its data; GC’s copies share one stream, so its blocks mix the handles. The fill before the test is untagged: its blocks
        count as handle 0 until rewritten.
      </p>
    </>
  );
}

/** Zone states by the layout's names: what each looks like and says. */
const ZONE_LOOK: Record<string, { label: string; color: string }> = {
  empty: { label: 'empty', color: 'var(--line-2)' },
  'implicitly-opened': { label: 'open', color: 'var(--c-green)' },
  'explicitly-opened': { label: 'open (explicitly)', color: 'var(--c-green)' },
  closed: { label: 'closed', color: 'var(--c-amber)' },
  full: { label: 'full', color: 'var(--c-teal)' },
};

/** Each zone a bar, filled to its write pointer and coloured by its state. */
export function ZoneBars({ at, states }: { at: InsideSecond; states: readonly string[] }) {
  const zs = at.zoneStates!;
  const wp = at.zoneWritten!;
  const looks = Array.from(zs, (s) => ZONE_LOOK[states[s]] ?? { label: states[s] ?? String(s), color: 'var(--c-grey)' });
  const counts = new Map<string, number>();
  for (const l of looks) counts.set(l.label, (counts.get(l.label) ?? 0) + 1);
  const legend = [...new Map(Object.values(ZONE_LOOK).map((l) => [l.label, l])).values()].filter(
    (l) => l.label !== 'open (explicitly)' || counts.has(l.label),
  );
  return (
    <>
      <h3>Zones</h3>
      <ul className="legend" data-testid="zone-legend">
        {legend.map((l) => (
          <li key={l.label}>
            <span className="key band" style={{ background: l.color, outline: '1px solid var(--line)' }} aria-hidden="true" />
            {l.label}
          </li>
        ))}
      </ul>
      <div
        className="zone-bars"
        role="img"
        aria-label={`${zs.length} zones, each filled to its write pointer: ${[...counts].map(([l, n]) => `${n} ${l}`).join(', ')}`}
        data-testid="zone-bars"
      >
        {looks.map((l, z) => (
          <span key={z} title={`zone ${z}: ${l.label}, ${formatPercent(wp[z])} written`} data-state={states[zs[z]]}>
            <span style={{ width: `${Math.min(100, 100 * wp[z])}%`, background: l.color }} />
          </span>
        ))}
      </div>
      <p className="hint">Zone 0 … {zs.length - 1}, left to right, each filled to its write pointer.</p>
      <p className="hint" data-testid="zone-summary">
        {zs.length} zones: {[...counts].map(([l, n]) => `${n} ${l}`).join(', ')}. A zone is written only at its write pointer; the host
        resets a whole zone to write it again.
      </p>
    </>
  );
}
