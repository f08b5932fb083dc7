// What an embed shows under its chart when its author asks (`show=panels,inside,latency`): the
// panels of what the drive is doing, the view inside the drive and the latency view, each drawn
// from the edited run's seconds as far as the host page sought.

import { lazy, Suspense } from 'react';
import type { ColumnStore } from '../data/columns';
import { Panels } from '../components/Panels';
import type { SimRun } from '../settings/runSetup';
import * as select from '../store/selectors';
import type { PageState } from '../store/state';
import type { Part } from './embedState';

const InsideView = lazy(() => import('../views/InsideView'));
const LatencyView = lazy(() => import('../views/LatencyView'));

export interface EmbedViewsProps {
  /** The run's store as far as the host page sought. */
  store: ColumnStore;
  run: SimRun;
  state: PageState;
  show: ReadonlySet<Part>;
  onCharts(charts: readonly string[] | null): void;
}

export function EmbedViews({ store, run, state, show, onCharts }: EmbedViewsProps) {
  if (!show.has('panels') && !show.has('inside') && !show.has('latency')) return null;
  const view = select.currentView(state);
  const runSeconds = select.runSeconds(state);
  const markers = select.markers(state);
  return (
    <Suspense fallback={<p className="hint">Loading…</p>}>
      {show.has('panels') && <h2 className="sr-only">What the drive is doing</h2>}
      {show.has('panels') && (
        <Panels
          store={store}
          context={select.panelContext(state)}
          chosen={state.chart.charts}
          onChoose={onCharts}
          view={view}
          runSeconds={runSeconds}
          markers={markers}
        />
      )}
      {show.has('inside') && (
        <section className="embed-view" aria-label="Inside the drive">
          <h2>Inside the drive</h2>
          <InsideView inside={run.inside} second={state.until} store={store} />
        </section>
      )}
      {show.has('latency') && (
        <section className="embed-view" aria-label="Latency">
          <h2>Latency</h2>
          <LatencyView store={store} inside={run.inside} view={view} runSeconds={runSeconds} markers={markers} picked={null} />
        </section>
      )}
    </Suspense>
  );
}
