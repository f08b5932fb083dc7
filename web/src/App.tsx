import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PANEL_IDS, type PanelContext } from './charts/panels';
import { resolveXDomain, viewLabel } from './charts/scales';
import { TimeChart, type TimeMarker } from './charts/TimeChart';
import { Controls } from './components/Controls';
import { DesignControls } from './components/DesignControls';
import { ErrorBanner } from './components/ErrorBanner';
import { Panels } from './components/Panels';
import { PowerCutTable } from './components/PowerCutTable';
import { Readout } from './components/Readout';
import { RunStats } from './components/RunStats';
import { StateBadge } from './components/StateBadge';
import { useEngine } from './hooks/useEngine';
import type { DrivePreset, Problem, SimConfig, WorkloadInfo } from './engine/protocol';
import { consistency as scenario } from './scenarios/consistency';
import { describeDesign, type DesignValues, type EngineOffer } from './settings/design';
import type { Overrides } from './settings/overrides';
import { buildRequest, problemPlace } from './settings/request';
import { checkAgainstEngine, parseSettings, settingsToSearch, type RunSettings } from './settings/urlState';

const DEFAULTS: RunSettings = {
  drive: 's3700-200',
  span: 1,
  seconds: scenario.defaultSeconds,
  seed: 1,
  view: scenario.views[0].id,
  workload: scenario.workload,
  design: {},
  overrides: {},
  charts: null,
};
const VOCABULARY = { views: scenario.views.map((v) => v.id), charts: PANEL_IDS };
const IOPS_SERIES = [{ field: 'iops', kind: 'dots' as const, color: '#1f6fd1', label: 'IOPS' }];
/** Quiet time after a change before the engine is asked whether it accepts the settings. */
const CHECK_DELAY_MS = 150;

function initialSettings() {
  return parseSettings(window.location.search, DEFAULTS, VOCABULARY);
}

export function App() {
  const engine = useEngine();
  const [initial] = useState(initialSettings);
  const [settings, setSettings] = useState<RunSettings>(initial.settings);
  const [urlErrors, setUrlErrors] = useState<string[]>(initial.errors);
  // Handlers keep their identity, so the settings and panels do not re-render for every sample.
  const update = useCallback((patch: Partial<RunSettings>) => setSettings((s) => ({ ...s, ...patch })), []);
  const onWorkload = useCallback((workload: string) => update({ workload }), [update]);
  const onDesign = useCallback((design: DesignValues) => update({ design }), [update]);
  const onOverrides = useCallback((overrides: Overrides) => update({ overrides }), [update]);
  const onCharts = useCallback((charts: readonly string[] | null) => update({ charts }), [update]);

  // Once the engine says what it knows, check the drive, workload and options from the link.
  const { presets, workloads, requestFields } = engine;
  const checkedLink = useRef(false);
  useEffect(() => {
    if (presets.length === 0 || checkedLink.current) return;
    checkedLink.current = true;
    const checked = checkAgainstEngine(settings, DEFAULTS, { presets, workloads, requestFields });
    setSettings(checked.settings);
    if (checked.errors.length > 0) setUrlErrors((e) => [...e, ...checked.errors]);
  }, [presets, workloads, requestFields, settings]);

  // Keep the URL in step with the settings, so the page can be shared as a link.
  useEffect(() => {
    const search = settingsToSearch(settings, DEFAULTS);
    if (search !== window.location.search) {
      window.history.replaceState(null, '', `${window.location.pathname}${search}${window.location.hash}`);
    }
  }, [settings]);

  const offer = useMemo(() => offerFor(presets, settings.drive, requestFields), [presets, settings.drive, requestFields]);
  const request = useMemo(() => buildRequest(settings, offer), [settings, offer]);
  const requestKey = JSON.stringify(request);

  // Ask the engine whether it accepts the settings as they are edited, so its message (naming
  // the field) appears next to the control before Start is pressed.
  const [problem, setProblem] = useState<Problem | null>(null);
  const engineReady = presets.length > 0 && engine.state !== 'loading';
  const { check } = engine;
  useEffect(() => {
    if (!engineReady) return;
    let current = true;
    const timer = setTimeout(() => {
      void check(JSON.parse(requestKey) as SimConfig).then((p) => current && setProblem(p));
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [requestKey, engineReady, check]);
  const placedProblem = useMemo(
    () =>
      problem
        ? { place: problemPlace(problem.field, settings, offer), message: `${problem.field}: ${problem.message}` }
        : null,
    [problem, settings, offer],
  );

  // The settings of the run on screen (those in effect when its Start was pressed).
  const startedWith = useRef<RunSettings>(settings);
  const [shownSettings, setShownSettings] = useState<RunSettings>(settings);
  useEffect(() => {
    if (engine.run) setShownSettings(startedWith.current);
  }, [engine.run]);

  const run = engine.run;
  const view = scenario.views.find((v) => v.id === settings.view) ?? scenario.views[0];
  const runSeconds = run?.config.seconds ?? settings.seconds;
  const [from, to] = resolveXDomain(view, runSeconds);
  const drive = presets.find((p) => p.id === (run?.config.drive ?? settings.drive));
  const hasRun = run !== null;

  const panelContext = useMemo(
    () =>
      run
        ? contextFor(run.config, run.parameters, workloads)
        : contextFor(request, { ...offer.parameters, ...request.set }, workloads),
    [run, request, offer, workloads],
  );
  const cutsAsked = useMemo(() => (run ? requestedCuts(run.config) : []), [run]);
  const markers: TimeMarker[] = useMemo(
    () =>
      cutsAsked.map((at, i) => {
        // Reports come in the order of the (ascending) cuts.
        const report = engine.powerCuts[i];
        return { at, label: report ? `power cut · ${report.acknowledged_writes_lost} lost` : 'power cut' };
      }),
    [cutsAsked, engine.powerCuts],
  );

  const { start: startEngine } = engine;
  const start = useCallback(() => {
    setUrlErrors([]);
    startedWith.current = settings;
    startEngine(request);
  }, [settings, request, startEngine]);

  const designControls = useMemo(
    () => (
      <DesignControls
        offer={offer}
        workloads={workloads}
        workload={settings.workload}
        onWorkload={onWorkload}
        values={settings.design}
        onValues={onDesign}
        overrides={settings.overrides}
        onOverrides={onOverrides}
        problem={placedProblem}
      />
    ),
    [offer, workloads, settings.workload, settings.design, settings.overrides, placedProblem, onWorkload, onDesign, onOverrides],
  );

  const runWorkload = run?.config.workload ?? settings.workload;
  const runDesign = hasRun ? describeDesign(shownSettings.design, offerFor(presets, shownSettings.drive, requestFields)) : [];
  const overridesOnScreen = hasRun ? Object.keys(shownSettings.overrides).length : 0;

  return (
    <div className="app">
      <header className="app-header">
        <div>
          <h1>SSD Lab</h1>
          <p className="tagline">A solid-state drive simulator: change the controller’s design and watch the consequences.</p>
        </div>
        <StateBadge state={engine.state} starting={engine.starting} />
      </header>

      <ErrorBanner
        title="Some settings in the link were not used"
        messages={urlErrors}
        onDismiss={() => setUrlErrors([])}
        testId="url-errors"
      />
      <ErrorBanner
        title="The engine reported a problem"
        messages={engine.error ? [engine.error.message] : []}
        onDismiss={engine.clearError}
        testId="engine-error"
      />

      <main className="layout">
        <aside className="panel">
          <h2>{scenario.title}</h2>
          <p className="hint">{scenario.description}</p>
          <Controls
            presets={presets}
            spans={scenario.spans}
            settings={settings}
            onChange={update}
            state={engine.state}
            starting={engine.starting}
            hasRun={hasRun}
            onStart={start}
            onPause={engine.pause}
            onResume={engine.resume}
            onReset={engine.reset}
            problem={placedProblem}
            generalProblem={placedProblem && placedProblem.place === null ? placedProblem.message : null}
          >
            {designControls}
          </Controls>
        </aside>

        <section className="panel results" aria-label="Results">
          <div className="results-head">
            <h2>
              {drive ? drive.name : 'IOPS over time'}
              {run && <span className="run-tag"> · {formatSpan(run.config.span)} of the span tested</span>}
            </h2>
            <div className="tabs" role="tablist" aria-label="Chart view">
              {scenario.views.map((v) => (
                <button
                  key={v.id}
                  type="button"
                  role="tab"
                  aria-selected={v.id === view.id}
                  className={v.id === view.id ? 'tab active' : 'tab'}
                  data-testid={`view-${v.id}`}
                  onClick={() => update({ view: v.id })}
                >
                  {viewLabel(v, runSeconds)}
                </button>
              ))}
            </div>
          </div>
          {run && (runWorkload !== scenario.workload || runDesign.length > 0 || overridesOnScreen > 0) && (
            <p className="variant" data-testid="run-variant">
              {runWorkload !== scenario.workload && <span className="tag">Workload: {runWorkload}</span>}
              {runDesign.map((d) => (
                <span className="tag" key={d}>
                  {d}
                </span>
              ))}
              {overridesOnScreen > 0 && (
                <span className="tag" title={Object.entries(shownSettings.overrides).map(([p, v]) => `${p}=${v}`).join('\n')}>
                  {overridesOnScreen} parameter {overridesOnScreen === 1 ? 'override' : 'overrides'}
                </span>
              )}
            </p>
          )}

          <Readout
            latest={engine.latest}
            runSeconds={run?.config.seconds ?? null}
            state={engine.state}
            summary={engine.summary}
            cutsRequested={cutsAsked.length}
            powerCuts={engine.powerCuts}
          />

          <TimeChart
            store={engine.store}
            series={IOPS_SERIES}
            markers={markers}
            view={view}
            runSeconds={runSeconds}
            xLabel="Time (s)"
            yLabel="IOPS"
            label={`${iopsLabel(workloads, runWorkload, run?.config)} per second, ${viewLabel(view, runSeconds)}`}
            height={400}
            testId="iops-chart"
            emptyText={emptyText(engine.state, hasRun || engine.starting, from)}
          />
          <RunStats store={engine.store} version={engine.latest.secondsDone} from={from} to={to} field="iops" />
          {engine.summary && (
            <p className="summary" data-testid="summary">
              Simulated {engine.summary.seconds_done.toLocaleString('en-US')} s in{' '}
              {(engine.summary.elapsed_ms / 1000).toFixed(1)} s of engine time
              {engine.setupMs !== null && <> (plus {(engine.setupMs / 1000).toFixed(1)} s for erase and fill)</>}.
            </p>
          )}
          <PowerCutTable cuts={engine.powerCuts} />

          <Panels
            store={engine.store}
            context={panelContext}
            chosen={settings.charts}
            onChoose={onCharts}
            view={view}
            runSeconds={runSeconds}
            markers={markers}
          />
        </section>
      </main>

      <footer className="app-footer">
        After the performance-consistency tests in AnandTech’s Intel SSD DC S3700 (2012) and S3500 (2013) reviews.
      </footer>
    </div>
  );
}

function offerFor(
  presets: readonly DrivePreset[],
  drive: string,
  requestFields: Readonly<Record<string, unknown>>,
): EngineOffer {
  return { parameters: presets.find((p) => p.id === drive)?.parameters ?? {}, requestFields };
}

function requestedCuts(config: SimConfig): number[] {
  return Array.isArray(config.power_cuts_s) ? (config.power_cuts_s as number[]) : [];
}

function contextFor(
  config: SimConfig,
  parameters: Readonly<Record<string, unknown>>,
  workloads: readonly WorkloadInfo[],
): PanelContext {
  const workload = workloads.find((w) => w.id === config.workload);
  return {
    parameters,
    workload: config.workload,
    writes: workload ? workload.read_percent < 100 : true,
    partialWrites: [config.block_bytes ?? workload?.block_bytes, config.align_bytes].some(
      (bytes) => typeof bytes === 'number' && bytes % 4096 !== 0,
    ),
    idle: Number(config.idle_s ?? 0) > 0,
    powerCuts: requestedCuts(config).length > 0,
    overridden: Object.keys(config.set ?? {}),
  };
}

/** "4 KB consistency IOPS", from the request size in effect. */
function iopsLabel(workloads: readonly WorkloadInfo[], workload: string, config: SimConfig | undefined): string {
  const bytes = typeof config?.block_bytes === 'number' ? config.block_bytes : workloads.find((w) => w.id === workload)?.block_bytes;
  return bytes ? `${formatBytes(bytes)} ${workload} IOPS` : `${workload} IOPS`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} B`;
}

function emptyText(state: string, hasRun: boolean, from: number): string {
  if (state === 'loading') return 'Loading the engine…';
  if (!hasRun) return 'Choose a drive, a workload and a design, then press Start.';
  return from > 0 ? `Dots appear here once the run passes ${from.toLocaleString('en-US')} s.` : 'Erasing and filling the drive…';
}

function formatSpan(span: number): string {
  return `${Number((span * 100).toFixed(1))}%`;
}
