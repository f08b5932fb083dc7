// The embed: one live chart of SSD Lab for an article, set up from its URL (embedState.ts), with
// as much chrome as the author asks for, over the same page store and selectors as the app. The
// reader's buttons and the host page's messages (useHostBridge.ts) send the store the same
// commands. It runs only while it can be seen (usePlayWhenSeen.ts), and never fetches the views it
// does not show (inside the drive, latency and experiments are separate chunks).

import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { CodeText } from '../components/CodeText';
import { ColumnStore } from '../data/columns';
import { ComparisonChart } from '../components/ComparisonChart';
import { ErrorBanner } from '../components/ErrorBanner';
import { EvidenceList } from '../components/EvidenceList';
import { RunStats } from '../components/RunStats';
import { ViewTabs } from '../components/ViewTabs';
import { formatInt } from '../format';
import { useOnScreen } from '../hooks/useOnScreen';
import { usePageStore } from '../hooks/usePageStore';
import { useMediaQuery } from '../hooks/useViewport';
import { consistency as scenario } from '../scenarios/consistency';
import { experimentSearch, joinSearch } from '../settings/experimentState';
import { DEFAULTS } from '../settings/pageDefaults';
import { linkSearch, type RunSettings } from '../settings/urlState';
import { figureMarks, runEvidence } from '../store/evidence';
import * as select from '../store/selectors';
import { setThemeChoice } from '../theme';
import type { HostBridge } from './bridge';
import { EmbedControls } from './EmbedControls';
import { EmbedPickers } from './EmbedPickers';
import { EmbedViews } from './EmbedViews';
import type { ParsedEmbed } from './embedState';
import { useEmbedSetup, putSetup } from './useEmbedSetup';
import { useHostBridge } from './useHostBridge';
import { usePlayWhenSeen } from './usePlayWhenSeen';

const ExperimentView = lazy(() => import('../views/ExperimentView'));

export interface EmbedProps {
  initial: ParsedEmbed;
  bridge: HostBridge;
}

/** One engine (the first run's), a fixed set of runs, starts checked first (see StoreOptions). */
const STORE_OPTIONS = { embedded: true };
/**
 * The chart redraws a few times a second while a run streams, not every frame: a page may hold
 * several embeds, and its own scrolling comes first.
 */
const REDRAW_MS = 250;
/** The chart's store before the runs exist. */
const EMPTY_STORE = new ColumnStore();

export function Embed({ initial, bridge }: EmbedProps) {
  const { store, state } = usePageStore(STORE_OPTIONS, true, (s) => putSetup(s, initial.setup));
  const { setup, current, ready, urlErrors, clearUrlErrors, applySetup } = useEmbedSetup(store, initial);
  const { options } = setup;
  const rootRef = useRef<HTMLElement>(null);
  const visible = useOnScreen(rootRef);
  const narrow = useMediaQuery('(max-width: 560px)');
  const chartHeight = narrow ? 240 : 320;
  useEffect(() => setThemeChoice(options.theme, false), [options.theme]);

  const activity = ready ? select.activity(state) : 'loading';
  const commanded = usePlayWhenSeen(store, { visible, activity, ready, autoplay: options.autoplay });
  const apply = useCallback(
    (next: typeof setup) => {
      commanded();
      applySetup(next);
    },
    [commanded, applySetup],
  );
  useHostBridge({ bridge, store, state, activity, visible, ready, urlErrors, setup: current, applySetup: apply, commanded, root: rootRef });

  const sims = state.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
  const focused = select.editedRun(state);
  const expMode = state.experiment.id !== null;
  const expInfo = state.catalog?.experiments.find((e) => e.id === state.experiment.id) ?? null;
  const paused = activity === 'paused';
  const canUse = options.controls === 'shown';
  const show = new Set(options.show);
  const showsEvidence = show.has('evidence');
  useEffect(() => store.showFigures(showsEvidence), [store, showsEvidence]);
  const update = (patch: Partial<RunSettings>) => apply({ ...current.current, settings: { ...current.current.settings, ...patch } });

  const view = select.currentView(state);
  const explain = select.viewExplain(state);
  const metric = select.currentMetric(state);
  const runSeconds = select.runSeconds(state);
  const [from, to] = select.xDomain(state);
  const names = select.runNames(state);
  const markers = select.markers(state);
  const focusStore = focused ? store.sought(focused) : null;
  const until = state.until;
  const emptyIdle = canUse
    ? 'Press Start to run the simulation.'
    : options.autoplay
      ? 'The run starts when this chart is in view.'
      : 'The page around this chart starts the run.';
  const appLink = new URL(
    `./${joinSearch(linkSearch(select.settingsOf(state), setup.compare, DEFAULTS), experimentSearch(state.experiment))}`,
    window.location.href,
  ).href;

  return (
    <main
      ref={rootRef}
      className={`embed controls-${options.controls}`}
      data-testid="embed"
      data-state={activity}
      data-visible={visible}
      data-until={until ?? ''}
    >
      <header className="embed-head">
        <h1 className="embed-title" data-testid="embed-title">
          {sims
            .map((r) => names.get(r.id))
            .filter(Boolean)
            .join(' vs ') || 'SSD Lab'}
        </h1>
        <a className="embed-open" href={appLink} target="_blank" rel="noopener">
          Open in SSD Lab<span aria-hidden="true"> ↗</span>
        </a>
      </header>

      <ErrorBanner
        title="Some settings in this chart’s address were not used"
        messages={urlErrors}
        onDismiss={clearUrlErrors}
        testId="url-errors"
      />
      <ErrorBanner
        title="The engine reported a problem"
        messages={select.engineErrors(state).map((e) => e.message)}
        onDismiss={() => store.dismissErrors()}
        testId="engine-error"
      />
      {state.notice && (
        <p className="field-error" role="alert" data-testid="embed-notice">
          {state.notice}
        </p>
      )}

      {/* Locked: the run's progress without its buttons (the page around the chart runs it). */}
      {options.controls !== 'hidden' &&
        (canUse ? (
          <EmbedControls store={store} state={state} activity={activity} ready={ready} commanded={commanded} />
        ) : (
          <div className="embed-locked">
            <EmbedControls store={store} state={state} activity={activity} ready={ready} commanded={commanded} />
          </div>
        ))}

      {show.has('setup') && <EmbedPickers state={state} disabled={!canUse} ready={ready} onChange={update} />}

      {show.has('chart') && expMode && (
        <Suspense fallback={<p className="hint">Loading the charts…</p>}>
          {/* The tables' run headings are h3s: a level between them and the title (axe heading-order). */}
          {expInfo && <h2 className="sr-only">{expInfo.title}</h2>}
          {expInfo && (
            <ExperimentView
              info={expInfo}
              settings={state.experiment}
              onPlot={(plot) => apply({ ...current.current, experiment: { ...current.current.experiment, plot } })}
              runs={select.experimentRuns(state)}
              focusKey={state.focusId}
              height={chartHeight}
            />
          )}
        </Suspense>
      )}

      {show.has('chart') && !expMode && (
        <>
          {canUse && (
            <ViewTabs
              className="embed-views"
              views={scenario.views}
              current={view.id}
              runSeconds={runSeconds}
              onView={(id) => update({ view: id })}
            />
          )}
          {sims.length > 1 && (
            <ul className="embed-legend" aria-label="Runs">
              {sims.map((r) => (
                <li key={r.id}>
                  <span className="run-key" style={{ background: r.color }} aria-hidden="true" /> {names.get(r.id)}
                </li>
              ))}
            </ul>
          )}
          <ComparisonChart
            runs={select.shownRuns(state).map((r) => ({ ...r, store: store.sought(r) }))}
            focusId={state.focusId}
            store={focusStore ?? EMPTY_STORE}
            series={select.runSeries(state, (r) => store.sought(r))}
            names={names}
            metric={metric}
            layout={state.chart.layout}
            onMetric={(id) => update({ metric: id })}
            onLayout={(id) => update({ layout: id })}
            view={select.chartView(state)}
            runSeconds={runSeconds}
            markers={markers}
            figures={showsEvidence ? figureMarks(state) : undefined}
            title={select.chartTitle(state)}
            height={chartHeight}
            emptyText={select.emptyText(state, emptyIdle, paused && !visible)}
            picked={null}
            showOptions={canUse}
            redrawMs={REDRAW_MS}
          />
        </>
      )}
      {until !== null && !expMode && (
        <p className="embed-until" data-testid="embed-until">
          Showing the run up to {formatInt(until)} s
          {focused?.ran && focused.secondsDone <= until && activity !== 'finished'
            ? `; the simulation has reached ${formatInt(focused.secondsDone)} s`
            : ''}
          .
        </p>
      )}
      {show.has('stats') && !expMode && focused && focusStore && (
        <RunStats store={focusStore} version={focused.secondsDone + (until ?? -1)} from={from} to={until ?? to} metric={metric} />
      )}
      {show.has('explain') && !expMode && explain && <p className="view-explain">{explain}</p>}
      {show.has('explain') && expMode && expInfo && (
        <p className="view-explain">
          <CodeText text={expInfo.about} />
        </p>
      )}
      {show.has('evidence') && !expMode && <EvidenceList evidence={runEvidence(state)} heading="h2" />}

      {focused && focusStore && !expMode && (
        <EmbedViews store={focusStore} run={focused} state={state} show={show} onCharts={(charts) => update({ charts })} />
      )}
    </main>
  );
}
