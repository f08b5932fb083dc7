// The app's experiment: its controls, the runs it is measured on, and its charts and table.

import { lazy, Suspense, useCallback } from 'react';
import { ExperimentBar, ExperimentLegend } from '../components/ExperimentBar';
import * as select from '../store/selectors';
import type { PageState } from '../store/state';
import type { PageStore } from '../store/store';

const ExperimentView = lazy(() => import('../views/ExperimentView'));

export interface ExperimentResultsProps {
  store: PageStore;
  state: PageState;
  invalid: string | null;
  /** Start was pressed (before the store starts). */
  onStart(): void;
  chartHeight: number;
}

export function ExperimentResults({ store, state, invalid, onStart, chartHeight }: ExperimentResultsProps) {
  const info = state.catalog?.experiments.find((e) => e.id === state.experiment.id) ?? null;
  const runs = select.experimentRuns(state);
  const entries = runs.flatMap((r) => (r.entry ? [r.entry] : []));
  const anyRunning = entries.some((e) => e.state === 'running');
  const anyPaused = entries.some((e) => e.state === 'paused');
  const onFocus = useCallback((id: number) => store.focus(id), [store]);
  const onRemove = useCallback((id: number) => store.removeRun(id), [store]);
  const onAdd = useCallback(() => store.addRun(), [store]);
  const onPlot = useCallback((plot: 'mb_s' | 'iops') => store.setExperiment({ plot }), [store]);
  return (
    <>
      <ExperimentBar
        startLabel={runs.length > 1 ? `Run ${runs.length} experiments` : 'Run experiment'}
        startBlocked={select.startBlocked(state, invalid)}
        onStart={() => {
          onStart();
          void store.start();
        }}
        canPause={anyRunning || anyPaused}
        paused={!anyRunning && anyPaused}
        onPauseResume={() => store.pauseOrResume()}
        canStop={anyRunning || anyPaused}
        onStop={() => store.stop()}
        canClear={entries.length > 0 || runs.length > 1}
        onClear={() => store.clear()}
        entry={state.experiments.get(state.focusId) ?? null}
      />
      <ExperimentLegend runs={runs} focusKey={state.focusId} onFocus={onFocus} onRemove={onRemove} onAdd={onAdd} />
      <div className="results-head">
        <h2 data-testid="exp-title">{info ? info.title : 'Loading the experiments…'}</h2>
      </div>
      {info && (
        <Suspense fallback={<p className="hint">Loading the charts…</p>}>
          <ExperimentView
            info={info}
            settings={state.experiment}
            onPlot={onPlot}
            runs={runs}
            focusKey={state.focusId}
            height={chartHeight}
          />
        </Suspense>
      )}
    </>
  );
}
