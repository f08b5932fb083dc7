// Small multiples under the IOPS chart: one panel per mechanism, on the same time axis, chosen
// for the run's variant unless the user picks them.

import { memo, useMemo } from 'react';
import type { ColumnStore } from '../data/columns';
import { PANELS, choosePanels, type PanelContext, type PanelSpec } from '../data/panels';
import type { ViewSpec } from '../data/views';
import { TimeChart, type TimeMarker } from '../charts/TimeChart';

export interface PanelsProps {
  store: ColumnStore;
  context: PanelContext;
  /** The user's pick (null: chosen for the variant). */
  chosen: readonly string[] | null;
  onChoose(chosen: readonly string[] | null): void;
  /** The IOPS chart's view: the panels share its seconds. */
  view: ViewSpec;
  runSeconds: number;
  markers: readonly TimeMarker[];
  /** Picks a second to explain (click or Enter on any panel). */
  onPick?: (second: number) => void;
  picked?: number | null;
}

const PANEL_HEIGHT = 150;
/** The panels redraw twice a second while a run streams in; the IOPS chart every frame. */
const PANEL_REDRAW_MS = 500;

export const Panels = memo(function Panels(props: PanelsProps) {
  const { context, view } = props;
  const shown = choosePanels(props.chosen, context);
  const shownIds = shown.map((p) => p.id);
  const toggle = (id: string) => {
    const next = shownIds.includes(id) ? shownIds.filter((x) => x !== id) : [...shownIds, id];
    props.onChoose(PANELS.map((p) => p.id).filter((x) => next.includes(x)));
  };
  // One view per panel, stable while nothing it depends on changes (charts redraw on a new one).
  const views = useMemo(() => {
    const out = new Map<string, ViewSpec>();
    for (const p of PANELS) {
      out.set(p.id, { id: view.id, label: view.label, xFrom: view.xFrom, y: { ...p.y, max: p.top?.(context) ?? p.y.max } });
    }
    return out;
  }, [view, context]);

  return (
    <section className="panels" aria-label="What the drive is doing">
      <div className="panel-picker" role="group" aria-label="Panels">
        <span className="picker-label">Panels</span>
        {PANELS.map((p) => (
          <button
            key={p.id}
            type="button"
            className={shownIds.includes(p.id) ? 'chip on' : 'chip'}
            aria-pressed={shownIds.includes(p.id)}
            onClick={() => toggle(p.id)}
            title={p.explain}
            data-testid={`panel-toggle-${p.id}`}
          >
            {p.title}
          </button>
        ))}
        {props.chosen !== null && (
          <button type="button" className="link" onClick={() => props.onChoose(null)}>
            Pick for this variant
          </button>
        )}
      </div>
      {shown.map((p) => (
        <Panel key={p.id} panel={p} {...props} view={views.get(p.id)!} />
      ))}
    </section>
  );
});

function Panel(props: PanelsProps & { panel: PanelSpec }) {
  const { panel: p, context } = props;
  const refs = useMemo(() => p.refs?.(context) ?? [], [p, context]);
  return (
    <div className="strip" data-testid={`panel-${p.id}`}>
      <div className="strip-head">
        <h3 title={p.explain}>{p.title}</h3>
        <ul className="legend">
          {p.series.map((s) => (
            <li key={s.field}>
              <span className={`key ${s.kind}`} style={{ background: s.color }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
          {(p.bands ?? []).map((b) => (
            <li key={b.field}>
              <span className="key band" style={{ background: b.color }} aria-hidden="true" />
              {b.label}
            </li>
          ))}
          {refs.length > 0 && (
            <li>
              <span className="key ref" aria-hidden="true" />
              levels
            </li>
          )}
        </ul>
      </div>
      <p className="strip-explain">{p.explain}</p>
      <TimeChart
        store={props.store}
        series={p.series}
        bands={p.bands}
        refs={refs}
        markers={props.markers}
        view={props.view}
        runSeconds={props.runSeconds}
        xLabel="Time (s)"
        yLabel={p.title}
        compact
        redrawMs={PANEL_REDRAW_MS}
        label={`${p.title} per second`}
        height={PANEL_HEIGHT}
        formatY={p.format}
        formatValue={p.value}
        style={p.y.kind === 'log' ? LOG_PANEL_STYLE : PANEL_STYLE}
        testId={`chart-${p.id}`}
        onPick={props.onPick}
        picked={props.picked}
      />
    </div>
  );
}

const PANEL_STYLE = { radius: 1.4 };
const LOG_PANEL_STYLE = { radius: 1.4, hideZeros: true };
