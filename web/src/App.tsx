import { useEffect, useState } from 'react';
import { ScatterChart } from './charts/ScatterChart';
import { resolveXDomain, viewLabel } from './charts/scales';
import { Controls } from './components/Controls';
import { ErrorBanner } from './components/ErrorBanner';
import { Readout } from './components/Readout';
import { RunStats } from './components/RunStats';
import { StateBadge } from './components/StateBadge';
import { useEngine } from './components/useEngine';
import { consistency as scenario } from './scenarios/consistency';
import {
  checkDrive,
  parseSettings,
  settingsToSearch,
  type RunSettings,
} from './scenarios/urlState';

const DEFAULTS: RunSettings = {
  drive: 's3700-200',
  span: 1,
  seconds: scenario.defaultSeconds,
  seed: 1,
  view: scenario.views[0].id,
};
const VIEW_IDS = scenario.views.map((v) => v.id);
const WA_VIEW = { id: 'wa', label: 'Write amplification', xFrom: 0, y: { kind: 'linear' as const } };
const WA_STYLE = { dot: '#6b4fbb', radius: 1.4 };
const formatPlain = (v: number) => String(v);

function initialSettings() {
  return parseSettings(window.location.search, DEFAULTS, VIEW_IDS);
}

export function App() {
  const engine = useEngine();
  const [initial] = useState(initialSettings);
  const [settings, setSettings] = useState<RunSettings>(initial.settings);
  const [urlErrors, setUrlErrors] = useState<string[]>(initial.errors);

  // Once the drives are known, check the drive from the link (or pick the first one).
  const { presets } = engine;
  useEffect(() => {
    if (presets.length === 0) return;
    const ids = presets.map((p) => p.id);
    setSettings((s) => {
      if (ids.includes(s.drive)) return s;
      const problem = checkDrive(s.drive, ids);
      if (problem && s.drive !== DEFAULTS.drive) setUrlErrors((e) => [...e, problem]);
      return { ...s, drive: ids[0] };
    });
  }, [presets]);

  // Keep the URL in step with the settings, so the page can be shared as a link.
  useEffect(() => {
    const search = settingsToSearch(settings, DEFAULTS);
    if (search !== window.location.search) {
      window.history.replaceState(null, '', `${window.location.pathname}${search}${window.location.hash}`);
    }
  }, [settings]);

  const view = scenario.views.find((v) => v.id === settings.view) ?? scenario.views[0];
  const runSeconds = engine.run?.seconds ?? settings.seconds;
  const [from, to] = resolveXDomain(view, runSeconds);
  const drive = presets.find((p) => p.id === (engine.run?.drive ?? settings.drive));
  const hasRun = engine.run !== null;
  const hasWa = engine.fields.includes('write_amplification');

  const start = () => {
    setUrlErrors([]);
    engine.start({
      drive: settings.drive,
      workload: scenario.workload,
      seconds: settings.seconds,
      span: settings.span,
      seed: settings.seed,
    });
  };

  return (
    <div className="app">
      <header className="app-header">
        <div>
          <h1>SSD Lab</h1>
          <p className="tagline">A solid-state drive simulator: watch garbage collection shape a drive’s performance.</p>
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
        messages={engine.error ? [engine.error] : []}
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
            onChange={(patch) => setSettings((s) => ({ ...s, ...patch }))}
            state={engine.state}
            starting={engine.starting}
            hasRun={hasRun}
            onStart={start}
            onPause={engine.pause}
            onResume={engine.resume}
            onReset={engine.reset}
          />
        </aside>

        <section className="panel results" aria-label="Results">
          <div className="results-head">
            <h2>
              {drive ? drive.name : 'IOPS over time'}
              {engine.run && <span className="run-tag"> · {formatSpan(engine.run.span)} of the span tested</span>}
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
                  onClick={() => setSettings((s) => ({ ...s, view: v.id }))}
                >
                  {viewLabel(v, runSeconds)}
                </button>
              ))}
            </div>
          </div>

          <Readout latest={engine.latest} runSeconds={engine.run?.seconds ?? null} state={engine.state} summary={engine.summary} />

          <ScatterChart
            store={engine.store}
            xField="second"
            yField="iops"
            view={view}
            runSeconds={runSeconds}
            xLabel="Time (s)"
            yLabel="IOPS"
            label={`4 KB random write IOPS per second, ${viewLabel(view, runSeconds)}`}
            height={420}
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

          {hasWa && (
            <details className="secondary" open>
              <summary>Write amplification over time</summary>
              <ScatterChart
                store={engine.store}
                xField="second"
                yField="write_amplification"
                view={WA_VIEW}
                runSeconds={runSeconds}
                xLabel="Time (s)"
                yLabel="Write amplification"
                label="Write amplification per second over the whole run"
                height={200}
                testId="wa-chart"
                formatY={formatPlain}
                style={WA_STYLE}
              />
            </details>
          )}
        </section>
      </main>

      <footer className="app-footer">
        After the performance-consistency tests in AnandTech’s Intel SSD DC S3700 (2012) and S3500 (2013) reviews.
      </footer>
    </div>
  );
}

function emptyText(state: string, hasRun: boolean, from: number): string {
  if (state === 'loading') return 'Loading the engine…';
  if (!hasRun) return 'Choose a drive and a spare area, then press Start.';
  return from > 0 ? `Dots appear here once the run passes ${from.toLocaleString('en-US')} s.` : 'Erasing and filling the drive…';
}

function formatSpan(span: number): string {
  return `${Number((span * 100).toFixed(1))}%`;
}
