// The app's live runs: the run bar, power controls and legend above the comparison chart, and
// under it the run's numbers, "why was this second slow?", the views inside the drive, exports
// and panels. Everything is read from the store and its selectors; the buttons send its commands.

import { lazy, Suspense, useCallback, useDeferredValue, useState, type ReactNode } from 'react';
import { ColumnStore } from '../data/columns';
import { hoverSecond } from '../charts/hover';
import { resolveXDomain } from '../data/views';
import { ComparisonChart } from '../components/ComparisonChart';
import { EvidenceList } from '../components/EvidenceList';
import { ExportBar } from '../components/ExportBar';
import { LazySection } from '../components/LazySection';
import { Panels } from '../components/Panels';
import { PowerControls } from '../components/PowerControls';
import { PowerCutTable } from '../components/PowerCutTable';
import { Readout } from '../components/Readout';
import { RunBar } from '../components/RunBar';
import { RunList } from '../components/RunList';
import { RunStats } from '../components/RunStats';
import { ViewTabs } from '../components/ViewTabs';
import { formatDuration, formatInt, format1 } from '../format';
import { consistency as scenario } from '../scenarios/consistency';
import type { SimRun } from '../settings/runSetup';
import { figureMarks, runEvidence } from '../store/evidence';
import * as select from '../store/selectors';
import type { PageState } from '../store/state';
import type { PageStore } from '../store/store';

const InsideView = lazy(() => import('../views/InsideView'));
const LatencyView = lazy(() => import('../views/LatencyView'));
const WhyPanel = lazy(() => import('../components/WhyPanel').then((m) => ({ default: m.WhyPanel })));

/** The chart's store before any run exists. */
const EMPTY_STORE = new ColumnStore();
const IDLE_TEXT = 'Choose a drive, a workload and a design, then press Start.';

export interface LiveResultsProps {
  store: PageStore;
  state: PageState;
  /** Why Start waits besides the engine (a field's text that is not a value). */
  invalid: string | null;
  /** Start was pressed (before the store starts). */
  onStart(): void;
  chartHeight: number;
  /** Whether what is under the chart is mounted yet (the page mounts in steps). */
  full: boolean;
  /** The first-visit guide, beside the chart (wide screens) or under it. */
  guide: ReactNode;
  narrow: boolean;
  /** Opens "how close is the model" (every published figure). */
  onHowClose(): void;
}

export function LiveResults({ store, state, invalid, onStart, chartHeight, full, guide, narrow, onHowClose }: LiveResultsProps) {
  const focused = select.editedRun(state);
  const settings = select.settingsOf(state);
  const sims = state.runs.filter((r) => r.kind === 'sim');
  const pending = sims.filter((r) => r.id !== state.focusId && !r.ran && !r.starting && r.state !== 'running');
  const anyRunning = sims.some((r) => r.state === 'running');
  const anyPaused = sims.some((r) => r.state === 'paused');
  const run = focused?.ran ? focused : null;
  const names = select.runNames(state, true);
  const nameOf = useCallback((r: SimRun) => names.get(r.id) ?? '', [names]);
  const focusName = names.get(state.focusId) ?? '';
  const drive = state.catalog?.presets.find((p) => p.id === settings.drive);

  const view = select.currentView(state);
  const explain = select.viewExplain(state);
  const metric = select.currentMetric(state);
  // The panels and the latency view under the chart follow a new view in a render of their own,
  // after the main chart has shown it: a click on a view tab paints sooner.
  const belowView = useDeferredValue(view);
  const runSeconds = select.runSeconds(state);
  const [from, to] = select.xDomain(state);
  const markers = select.markers(state);
  const shown = select.shownRuns(state);

  // The picked second ("why was this second slow?"), of the focused run's results as they are.
  const [pick, setPick] = useState<{ ran: SimRun['ran']; second: number } | null>(null);
  const picked = pick && focused?.ran && pick.ran === focused.ran ? pick.second : null;
  const onPick = useCallback(
    (second: number) => setPick({ ran: select.editedRun(store.getSnapshot())?.ran ?? null, second }),
    [store, setPick],
  );

  const onEdit = useCallback((patch: Parameters<PageStore['edit']>[0]) => store.edit(patch), [store]);
  const onMetric = useCallback((id: string) => store.edit({ metric: id }), [store]);
  const onLayout = useCallback((id: string) => store.edit({ layout: id }), [store]);
  const onCharts = useCallback((charts: readonly string[] | null) => store.edit({ charts }), [store]);
  const onFocus = useCallback((id: number) => store.focus(id), [store]);
  const onRemove = useCallback((id: number) => store.removeRun(id), [store]);
  const onAdd = useCallback(() => store.addRun(), [store]);
  const onLoadLog = useCallback((file: File) => void store.loadLog(file), [store]);
  const onCut = useCallback(() => store.cutPower(), [store]);
  const onCapacitors = useCallback((healthy: boolean) => store.setCapacitors(healthy), [store]);
  const askedCut = select.latestAskedCut(state);
  const panelContext = select.panelContext(state);

  return (
    <>
      <RunBar
        startLabel={pending.length > 0 ? `Start ${pending.length + 1} runs` : focused?.ran ? 'Run again' : 'Start'}
        startBlocked={select.startBlocked(state, invalid)}
        onStart={() => {
          onStart();
          void store.start();
        }}
        canPause={anyRunning || anyPaused}
        paused={!anyRunning && anyPaused}
        onPauseResume={() => store.pauseOrResume()}
        canStep={anyRunning || anyPaused}
        onStep={() => store.step()}
        canRestart={sims.some((r) => r.ran) && !sims.some((r) => r.starting)}
        onRestart={() => store.restart()}
        canClear={state.runs.length > 1 || sims.some((r) => r.ran || r.starting)}
        onClear={() => store.clear()}
        progress={select.progress(state)}
        runCount={sims.filter((r) => r.ran).length}
      />
      {focused?.ran && (
        <PowerControls
          live={focused.state === 'running' || focused.state === 'paused'}
          capacitorsHealthy={focused.capacitorsHealthy}
          fitted={focused.parameters['power.capacitors'] !== false}
          onCut={onCut}
          onCapacitors={onCapacitors}
          pendingAt={askedCut && !askedCut.report ? askedCut.at : null}
          latest={askedCut?.report ?? null}
          store={focused.store}
          rows={focused.store.length}
        />
      )}
      {!narrow && guide}
      <RunList
        runs={state.runs}
        focusId={state.focusId}
        name={nameOf}
        onFocus={onFocus}
        onRemove={onRemove}
        onAdd={onAdd}
        onLoadLog={onLoadLog}
        logError={state.logError}
      />

      <div className="results-head">
        <h2>{drive && shown.length <= 1 ? drive.name : 'Comparison'}</h2>
        <ViewTabs views={scenario.views} current={view.id} runSeconds={runSeconds} onView={(id) => onEdit({ view: id })} />
      </div>
      <ComparisonChart
        runs={shown}
        focusId={state.focusId}
        store={focused?.store ?? EMPTY_STORE}
        series={select.runSeries(state)}
        names={names}
        metric={metric}
        layout={state.chart.layout}
        onMetric={onMetric}
        onLayout={onLayout}
        view={select.chartView(state)}
        runSeconds={runSeconds}
        markers={markers}
        figures={figureMarks(state)}
        title={select.chartTitle(state)}
        height={chartHeight}
        emptyText={select.emptyText(state, IDLE_TEXT)}
        onPick={onPick}
        picked={picked}
        onDropFile={onLoadLog}
      />
      {narrow && guide}
      {explain && (
        <p className="view-explain" data-testid="view-explain">
          {explain}
        </p>
      )}
      {focused && <RunStats store={focused.store} version={focused.secondsDone} from={from} to={to} metric={metric} />}
      <EvidenceList evidence={runEvidence(state)} onHowClose={onHowClose} />

      {picked !== null && focused && (
        <Suspense fallback={null}>
          <WhyPanel
            store={focused.store}
            version={focused.secondsDone}
            second={picked}
            runName={focusName}
            parameters={focused.parameters}
            onClose={() => {
              setPick(null);
              hoverSecond.set(null);
            }}
            onMove={(s) => {
              onPick(s);
              hoverSecond.set(s);
            }}
          />
        </Suspense>
      )}
      {picked === null && run && run.store.length > 0 && (
        <p className="hint pick-hint">Click a dot, or focus the chart and press Enter, to see why that second was fast or slow.</p>
      )}

      {full && (
        <>
          <Readout run={focused ?? null} />
          {focused?.summary && (
            <p
              className="summary"
              data-testid="summary"
              data-engine-ms={focused.summary.elapsed_ms}
              data-setup-ms={focused.setupMs ?? undefined}
            >
              Simulated {formatInt(focused.summary.seconds_done)} s in {formatDuration(focused.summary.seconds_done / focused.speed)} of
              your time ({format1(focused.speed)}× real time)
              {focused.setupMs !== null && <>, after {format1(focused.setupMs / 1000)} s to erase and fill the drive</>}.
            </p>
          )}
          <PowerCutTable cuts={focused?.powerCuts ?? []} />
          {focused && (
            <>
              <LazySection
                title="Inside the drive"
                hint="what every die does each second, the blocks GC chooses from, wear"
                testId="section-inside"
              >
                <InsideView inside={focused.inside} second={picked} store={focused.store} />
              </LazySection>
              <LazySection title="Latency" hint="percentiles per second and the run’s histogram" testId="section-latency">
                <LatencyView
                  store={focused.store}
                  inside={focused.inside}
                  view={belowView}
                  runSeconds={runSeconds}
                  markers={markers}
                  onPick={onPick}
                  picked={picked}
                />
              </LazySection>
            </>
          )}
          <ExportBar
            run={run}
            runName={focusName}
            sampleFields={state.catalog?.sampleFields ?? []}
            writes={panelContext.writes}
            blockBytes={select.blockBytes(state)}
            steadyFrom={resolveXDomain(scenario.views[1], run?.ran?.config.seconds ?? settings.seconds)[0]}
          />
          {focused && (
            <Panels
              store={focused.store}
              context={panelContext}
              chosen={state.chart.charts}
              onChoose={onCharts}
              view={belowView}
              runSeconds={runSeconds}
              markers={markers}
              onPick={onPick}
              picked={picked}
            />
          )}
        </>
      )}
    </>
  );
}
