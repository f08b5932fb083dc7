// The embed: one live chart of SSD Lab for an article, set up from its URL (embedState.ts), with
// as much chrome as the author asks for, driven by the reader or by the host page's messages
// (messages.ts, through the bridge). It runs only while it can be seen, and never fetches the
// views it does not show (inside the drive, latency and experiments are separate chunks).

import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ColumnStore } from '../data/columns';
import { StorePrefix } from '../data/prefix';
import { METRICS, resolveXDomain, type ViewSpec } from '../data/views';
import type { ChartSeries, TimeMarker } from '../charts/TimeChart';
import { ComparisonChart } from '../components/ComparisonChart';
import { ErrorBanner } from '../components/ErrorBanner';
import { ExperimentBar } from '../components/ExperimentBar';
import { Panels } from '../components/Panels';
import { RunBar } from '../components/RunBar';
import { RunStats } from '../components/RunStats';
import { ExperimentSet } from '../engine/experiments';
import type { ExperimentEntry } from '../engine/experiments';
import type { EngineState, SimConfig } from '../engine/protocol';
import { formatInt } from '../format';
import { useOnScreen } from '../hooks/useOnScreen';
import { useRuns } from '../hooks/useRuns';
import { useMediaQuery } from '../hooks/useViewport';
import { consistency as scenario } from '../scenarios/consistency';
import { driveGroups, spanOption } from '../settings/capacity';
import { experimentSearch, joinSearch } from '../settings/experimentState';
import { DEFAULTS } from '../settings/pageDefaults';
import {
  chartHeading,
  contextFor,
  experimentRequestFor,
  offerFor,
  requestedCuts,
  runName,
  runRequest,
  type SimRun,
} from '../settings/runSetup';
import { ViewTabs } from '../components/ViewTabs';
import { buildRequest } from '../settings/request';
import { linkSearch, type RunSettings } from '../settings/urlState';
import { setThemeChoice } from '../theme';
import type { HostBridge } from './bridge';
import { applyConfig, checkEmbed, embedSearch, setupRuns, type EmbedSetup, type ParsedEmbed } from './embedState';
import type { EmbedState, HostMessage } from './messages';

const InsideView = lazy(() => import('../views/InsideView'));
const LatencyView = lazy(() => import('../views/LatencyView'));
const ExperimentView = lazy(() => import('../views/ExperimentView'));

export interface EmbedProps {
  initial: ParsedEmbed;
  bridge: HostBridge;
}

/** "drive: unknown drive ..." -> the key and the rest, for an error event. */
function splitError(text: string): { field: string; message: string } {
  const at = text.indexOf(': ');
  return at > 0 ? { field: text.slice(0, at), message: text.slice(at + 2) } : { field: 'setup', message: text };
}

/** One state for every run in the embed: the busiest wins. */
function embedState(states: readonly (EngineState | ExperimentEntry['state'])[], starting: boolean, loading: boolean): EmbedState {
  if (loading) return 'loading';
  if (states.includes('error')) return 'error';
  if (starting) return 'starting';
  for (const s of ['running', 'paused'] as const) if (states.includes(s)) return s;
  if (states.length > 0 && states.every((s) => s === 'finished' || s === 'stopped'))
    return states.includes('stopped') ? 'stopped' : 'finished';
  return 'idle';
}

/**
 * The chart redraws a few times a second while a run streams, not every frame: a page may hold
 * several embeds, and its own scrolling comes first.
 */
const REDRAW_MS = 250;

/** The chart's store before the runs exist. */
const EMPTY_STORE = new ColumnStore();

export function Embed({ initial, bridge }: EmbedProps) {
  const { runs, snap } = useRuns<RunSettings>(true);
  const catalog = snap.catalog;
  const [setup, setSetup] = useState<EmbedSetup>(initial.setup);
  const setupRef = useRef(setup);
  setupRef.current = setup;
  const [urlErrors, setUrlErrors] = useState<string[]>(initial.errors);
  /** The engine's objection to the last start, shown above the chart. */
  const [notice, setNotice] = useState<string | null>(null);
  /** The last second shown (a host page's seek), or null for every second. */
  const [until, setUntil] = useState<number | null>(null);
  const [experiments] = useState(() => new ExperimentSet());
  useEffect(() => () => experiments.dispose(), [experiments]);
  const expSnap = useSyncExternalStore(experiments.subscribe, experiments.snapshot);
  const rootRef = useRef<HTMLElement>(null);
  const visible = useOnScreen(rootRef);
  const { options } = setup;
  const narrow = useMediaQuery('(max-width: 560px)');
  const chartHeight = narrow ? 240 : 320;

  useEffect(() => setThemeChoice(options.theme, false), [options.theme]);

  /** Makes the page's runs those of a setup, reusing their workers; results are cleared. */
  const syncRuns = useCallback(
    (next: EmbedSetup) => {
      const wanted = setupRuns(next);
      const have = runs.snapshot().runs.map((r) => r.id);
      wanted.forEach((s, i) => {
        if (have[i] === undefined) runs.add(s);
        else {
          runs.reset(have[i]);
          runs.edit(have[i], s);
        }
      });
      for (const id of have.slice(wanted.length)) runs.remove(id);
      const first = runs.snapshot().runs[0];
      if (first) runs.focus(first.id);
      experiments.keepOnly([]);
      setUntil(null);
    },
    [runs, experiments],
  );
  const seeded = useRef(false);
  useEffect(() => {
    if (seeded.current) return;
    seeded.current = true;
    syncRuns(setupRef.current);
  }, [syncRuns]);

  // Once the engine says what it knows, check the names in the URL, then answer messages.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!catalog || ready) return;
    const checked = checkEmbed(setupRef.current, catalog);
    if (checked.errors.length > 0) {
      setSetup(checked.setup);
      syncRuns(checked.setup);
      setUrlErrors((e) => [...e, ...checked.errors]);
    }
    setReady(true);
  }, [catalog, ready, syncRuns]);

  const sims = snap.runs.filter((r): r is SimRun => r.kind === 'sim' && r.setup !== null);
  const focused = sims[0];
  const presets = catalog?.presets ?? [];
  const workloads = catalog?.workloads ?? [];
  const requestFields = catalog?.requestFields ?? {};
  const expInfo = catalog?.experiments.find((e) => e.id === setup.experiment.id) ?? null;
  const expMode = setup.experiment.id !== null;
  const expEntries = sims.map((r) => expSnap.entries.get(r.id) ?? null);
  const liveStates = sims.map((r) => r.state);
  const expStates = expEntries.filter((e): e is ExperimentEntry => e !== null).map((e) => e.state);
  const state = embedState(
    expMode ? expStates : liveStates,
    // An experiment is starting from Start until its worker says it runs.
    expMode ? expEntries.some((e) => e?.starting || (e?.request && e.state === 'idle')) : sims.some((r) => r.starting),
    !ready,
  );
  const running = state === 'running';
  const paused = state === 'paused';

  // ---- actions: the reader's buttons and the host page's messages do the same ----------------

  /** Runs paused because the embed went off screen (they resume when it is back). */
  const pausedOffscreen = useRef(false);

  /** Tells the host page what it got wrong (a refused message changes nothing on screen). */
  const report = useCallback(
    (field: string, message: string, ref?: string | number) =>
      bridge.post({ type: 'error', field, message, ...(ref !== undefined ? { ref } : {}) }),
    [bridge],
  );
  /** The engine refused to start: the reader sees why, and so does the host page. */
  const refuse = useCallback(
    (field: string, message: string, ref?: string | number) => {
      setNotice(`${field}: ${message}`);
      report(field, message, ref);
    },
    [report],
  );

  const start = useCallback(
    async (ref?: string | number) => {
      if (!catalog) return;
      pausedOffscreen.current = false;
      setNotice(null);
      const list = runs.snapshot().runs.filter((r): r is SimRun => r.kind === 'sim' && r.setup !== null);
      const current = setupRef.current;
      const info = catalog.experiments.find((e) => e.id === current.experiment.id);
      if (current.experiment.id !== null && info) {
        const requests = list.map((r) => experimentRequestFor(r.setup!, current.experiment, info, catalog));
        const problems = await Promise.all(requests.map((q) => experiments.check(q)));
        const bad = problems.findIndex((p) => p !== null);
        if (bad >= 0) return refuse(problems[bad]!.field, problems[bad]!.message, ref);
        list.forEach((r, i) => experiments.start(r.id, requests[i]));
        return;
      }
      const requests = list.map((r) => runRequest(r.setup!, catalog));
      const problems = await Promise.all(requests.map((q) => runs.check(q)));
      const bad = problems.findIndex((p) => p !== null);
      if (bad >= 0) return refuse(problems[bad]!.field, problems[bad]!.message, ref);
      list.forEach((r, i) => runs.start(r.id, requests[i], r.setup!));
    },
    [catalog, runs, experiments, refuse],
  );

  const pauseAll = useCallback(() => {
    for (const r of runs.snapshot().runs) if (r.state === 'running') runs.pause(r.id);
    for (const e of experiments.snapshot().entries.values()) if (e.state === 'running') experiments.pause(e.key);
  }, [runs, experiments]);
  const resumeAll = useCallback(() => {
    for (const r of runs.snapshot().runs) if (r.state === 'paused') runs.resume(r.id);
    for (const e of experiments.snapshot().entries.values()) if (e.state === 'paused') experiments.resume(e.key);
  }, [runs, experiments]);
  const stepAll = useCallback(() => {
    for (const r of runs.snapshot().runs) if (r.state === 'running' || r.state === 'paused') runs.step(r.id);
  }, [runs]);
  const resetAll = useCallback(() => {
    pausedOffscreen.current = false;
    for (const r of runs.snapshot().runs) runs.reset(r.id);
    experiments.keepOnly([]);
    setUntil(null);
    setNotice(null);
  }, [runs, experiments]);

  /** A new setup from the reader's pickers or a host's config: the chart starts over. */
  const applySetup = useCallback(
    (next: EmbedSetup) => {
      const runsChanged = JSON.stringify(setupRuns(next)) !== JSON.stringify(setupRuns(setupRef.current));
      const expChanged = JSON.stringify(next.experiment) !== JSON.stringify(setupRef.current.experiment);
      setupRef.current = next;
      setSetup(next);
      if (runsChanged || expChanged) {
        pausedOffscreen.current = false;
        syncRuns(next);
      }
    },
    [syncRuns],
  );

  const onMessage = (m: HostMessage) => {
    const ref = m.ref;
    switch (m.type) {
      case 'hello':
        bridge.post({ type: 'ready', setup: embedSearch(setupRef.current), state });
        return;
      case 'config': {
        if (!catalog) return;
        const applied = applyConfig(setupRef.current, m.settings, catalog);
        if (applied.errors.length > 0) {
          for (const e of applied.errors) {
            const { field, message } = splitError(e);
            report(field, message, ref);
          }
          return;
        }
        setNotice(null);
        applySetup(applied.setup);
        return;
      }
      case 'start':
        void start(ref);
        return;
      case 'pause':
        pausedOffscreen.current = false;
        pauseAll();
        return;
      case 'resume':
        pausedOffscreen.current = false;
        resumeAll();
        return;
      case 'step':
        if (expMode) return report('type', 'step moves a live run by one second; this embed shows an experiment', ref);
        pausedOffscreen.current = false;
        stepAll();
        return;
      case 'reset':
        resetAll();
        return;
      case 'seek': {
        if (expMode) return report('type', 'seek shows a live run up to a second; this embed shows an experiment', ref);
        const total = Math.max(...setupRuns(setupRef.current).map((s) => s.seconds));
        if (m.second !== null && m.second > total) {
          return report(
            'second',
            `must be a whole number from 0 to ${total} (the run's length), or null for the whole run (got ${m.second})`,
            ref,
          );
        }
        setUntil(m.second);
        return;
      }
    }
  };
  const onMessageRef = useRef(onMessage);
  onMessageRef.current = onMessage;
  const stateRef = useRef(state);
  stateRef.current = state;

  // Ready: answer messages (those that came early first), and say what the URL got wrong (once:
  // the URL does not change, and its names were checked against the engine before `ready`).
  const urlErrorsRef = useRef(urlErrors);
  urlErrorsRef.current = urlErrors;
  useEffect(() => {
    if (!ready) return;
    bridge.post({ type: 'ready', setup: embedSearch(setupRef.current), state: stateRef.current });
    for (const e of urlErrorsRef.current) bridge.post({ type: 'error', ...splitError(e) });
    bridge.open((m) => onMessageRef.current(m));
    return () => bridge.hold();
  }, [ready, bridge]);

  // ---- visibility and autoplay -----------------------------------------------------------------

  useEffect(() => {
    if (!visible && running) {
      pausedOffscreen.current = true;
      pauseAll();
    } else if (visible && paused && pausedOffscreen.current) {
      pausedOffscreen.current = false;
      resumeAll();
    }
  }, [visible, running, paused, pauseAll, resumeAll]);

  // The first run's worker is the embed's engine: it says what the engine knows and checks requests.
  const firstId = focused?.id;
  useEffect(() => {
    if (firstId !== undefined) runs.prepare(firstId);
  }, [firstId, runs]);

  const autoplayed = useRef(false);
  useEffect(() => {
    if (!ready || !visible || !options.autoplay || autoplayed.current || sims.length === 0) return;
    autoplayed.current = true;
    void start();
  }, [ready, visible, options.autoplay, sims.length, start]);

  // ---- events for the host page ----------------------------------------------------------------

  useEffect(() => {
    if (ready) bridge.post({ type: 'state', state, visible });
  }, [ready, state, visible, bridge]);

  const posted = useRef(new Map<number, number>());
  useEffect(() => {
    if (!ready || expMode) return;
    sims.forEach((r, i) => {
      if (!r.ran) posted.current.delete(r.id);
      if (!r.ran || posted.current.get(r.id) === r.secondsDone) return;
      posted.current.set(r.id, r.secondsDone);
      bridge.post({ type: 'progress', run: i + 1, done: r.secondsDone, total: r.ran.config.seconds, unit: 'second' });
    });
  });

  // Every second of every live run as a sample event, read from the run's store as it fills.
  const storesKey = sims.map((r) => r.id).join(',');
  useEffect(() => {
    if (!ready || !bridge.connected) return;
    const list = runs.snapshot().runs.filter((r) => r.kind === 'sim');
    const unsubscribes = list.map((r, i) => {
      let sent = r.store.length;
      const store = r.store;
      const flush = () => {
        if (store.length < sent) sent = 0;
        if (!store.has('second')) return;
        const fields = store.fields;
        const columns = fields.map((f) => store.column(f));
        for (; sent < store.length; sent++) {
          const values: Record<string, number> = {};
          fields.forEach((f, k) => (values[f] = columns[k][sent]));
          bridge.post({ type: 'sample', run: i + 1, second: values.second, values });
        }
      };
      return store.subscribe(flush);
    });
    return () => unsubscribes.forEach((u) => u());
  }, [ready, storesKey, runs, bridge]);

  // An experiment's rows as sample events, and its points as progress.
  const rowsSent = useRef(new Map<number, number>());
  useEffect(() => {
    if (!ready || !expMode) return;
    expEntries.forEach((e, i) => {
      if (!e?.table) return;
      const sent = rowsSent.current.get(e.key) ?? 0;
      const rows = e.table.rows;
      for (let k = sent > rows.length ? 0 : sent; k < rows.length; k++) {
        const values = Object.fromEntries(e.table.columns.map((c, j) => [c, rows[k][j]]));
        bridge.post({ type: 'sample', run: i + 1, point: k, values });
      }
      if (rows.length !== sent) {
        rowsSent.current.set(e.key, rows.length);
        if (e.progress)
          bridge.post({ type: 'progress', run: i + 1, done: e.progress.points_done, total: e.progress.points, unit: 'point' });
      }
    });
  });

  // Engine errors, once each.
  const engineErrors = [...sims.filter((r) => r.error).map((r) => r.error!), ...expEntries.filter((e) => e?.error).map((e) => e!.error!)];
  const errorsKey = engineErrors.map((e) => `${e.field ?? ''}\u0000${e.message}`).join('\u0001');
  const errorsPosted = useRef(new Set<string>());
  useEffect(() => {
    if (!ready) return;
    const now = new Set(errorsKey ? errorsKey.split('\u0001') : []);
    for (const e of now) {
      if (errorsPosted.current.has(e)) continue;
      const [field, message] = e.split('\u0000');
      bridge.post({ type: 'error', field: field || 'engine', message });
    }
    errorsPosted.current = now;
  }, [ready, errorsKey, bridge]);

  // The content's height, so the host page can size the frame to it.
  useLayoutEffect(() => {
    const el = rootRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const ro = new ResizeObserver(() => {
      const height = Math.ceil(el.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        bridge.post({ type: 'height', height });
      }
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [bridge]);

  // ---- what is drawn ---------------------------------------------------------------------------

  const settings = setup.settings;
  const view = scenario.views.find((v) => v.id === settings.view) ?? scenario.views[0];
  const metric = METRICS.find((m) => m.id === settings.metric) ?? METRICS[0];
  const chartView: ViewSpec = useMemo(() => ({ ...view, y: { ...view.y, minTop: metric.minTop } }), [view, metric]);
  const shown = sims.filter((r) => r.ran !== null);
  const runSeconds = Math.max(settings.seconds, ...shown.map((r) => r.ran?.config.seconds ?? 0));
  const [from, to] = resolveXDomain(view, runSeconds);

  // Each run's store as far as the host page has sought.
  const prefixes = useRef(new Map<number, StorePrefix>());
  const prefixOf = (r: SimRun): StorePrefix => {
    let p = prefixes.current.get(r.id);
    if (!p) {
      p = new StorePrefix(r.store);
      p.setUntil(until);
      prefixes.current.set(r.id, p);
    }
    return p;
  };
  useEffect(() => {
    for (const p of prefixes.current.values()) p.setUntil(until);
  }, [until]);
  useEffect(() => {
    const ids = new Set(sims.map((r) => r.id));
    for (const [id, p] of prefixes.current) {
      if (!ids.has(id)) {
        p.dispose();
        prefixes.current.delete(id);
      }
    }
  });
  const shownRuns = shown.map((r) => ({ ...r, store: prefixOf(r) }));
  const focusStore = focused ? prefixOf(focused) : null;

  // Names change with settings, not with every second: the chart keeps its series meanwhile.
  const nameKey = sims.map((r) => `${r.id}\u0000${runName(r, presets, requestFields, !expMode)}`).join('\u0001');
  const names = useMemo(
    () =>
      new Map(
        nameKey
          ? nameKey.split('\u0001').map((e) => {
              const [id, name] = e.split('\u0000');
              return [Number(id), name] as const;
            })
          : [],
      ),
    [nameKey],
  );
  const seriesKey = shown.map((r) => r.id).join(',');
  const series: ChartSeries[] = useMemo(
    () =>
      [...shownRuns.slice(1), ...shownRuns.slice(0, 1)].map((r) => ({
        field: metric.id,
        kind: 'dots' as const,
        color: r.color,
        label: names.get(r.id) ?? '',
        store: r.store,
        key: `run${r.id}`,
      })),
    [seriesKey, metric, names],
  );
  const ranConfig: SimConfig | undefined = focused?.ran?.config;
  const markers: TimeMarker[] = useMemo(
    () => [
      ...(ranConfig ? requestedCuts(ranConfig).map((at) => ({ at, label: 'power cut' })) : []),
      ...(until !== null ? [{ at: until, label: `${formatInt(until)} s` }] : []),
    ],
    [ranConfig, until],
  );
  const workload = workloads.find((w) => w.id === (ranConfig?.workload ?? settings.workload));
  const blockBytes = typeof ranConfig?.block_bytes === 'number' ? ranConfig.block_bytes : (workload?.block_bytes ?? 4096);
  const chartTitle = chartHeading(shown.length, metric, view, runSeconds, blockBytes, ranConfig?.workload ?? settings.workload);
  const title =
    sims
      .map((r) => names.get(r.id))
      .filter(Boolean)
      .join(' vs ') || 'SSD Lab';

  const canUse = options.controls === 'shown';
  const emptyText = !ready
    ? 'Loading the engine…'
    : state === 'starting'
      ? 'Erasing and filling the drive…'
      : state === 'paused' && !visible
        ? 'Paused while out of view.'
        : from > 0 && shown.length > 0
          ? `Dots appear here once the run passes ${formatInt(from)} s.`
          : canUse
            ? 'Press Start to run the simulation.'
            : options.autoplay
              ? 'The run starts when this chart is in view.'
              : 'The page around this chart starts the run.';

  const appLink = new URL(
    `./${joinSearch(linkSearch(settings, setup.compare, DEFAULTS), experimentSearch(setup.experiment))}`,
    window.location.href,
  ).href;
  const show = new Set(options.show);
  const panelContext = useMemo(
    () =>
      ranConfig && focused
        ? contextFor(ranConfig, focused.parameters, workloads)
        : contextFor(
            buildRequest(settings, offerFor(presets, settings.drive, requestFields)),
            presets.find((p) => p.id === settings.drive)?.parameters ?? {},
            workloads,
          ),
    [ranConfig, focused, workloads, settings, presets, requestFields],
  );
  const progress =
    focused?.ran || focused?.starting
      ? {
          secondsDone: focused.secondsDone,
          totalSeconds: focused.ran?.config.seconds ?? settings.seconds,
          speed: focused.speed,
          state: focused.state,
          starting: focused.starting,
        }
      : null;

  const update = (patch: Partial<RunSettings>) => applySetup({ ...setupRef.current, settings: { ...setupRef.current.settings, ...patch } });
  const drive = presets.find((p) => p.id === settings.drive);

  const controls =
    options.controls === 'hidden' ? null : expMode ? (
      <ExperimentBar
        startLabel="Run experiment"
        startBlocked={ready && expInfo ? null : 'The engine is loading…'}
        onStart={() => void start()}
        canPause={running || paused}
        paused={paused}
        onPauseResume={paused ? resumeAll : pauseAll}
        canStop={running || paused}
        onStop={() => expEntries.forEach((e) => e && experiments.stop(e.key))}
        canClear={expEntries.some((e) => e !== null)}
        onClear={resetAll}
        entry={expEntries[0] ?? null}
      />
    ) : (
      <RunBar
        startLabel={sims.length > 1 ? `Start ${sims.length} runs` : focused?.ran ? 'Run again' : 'Start'}
        startBlocked={ready ? null : 'The engine is loading…'}
        onStart={() => void start()}
        canPause={running || paused}
        paused={paused}
        onPauseResume={() => {
          pausedOffscreen.current = false;
          if (paused) resumeAll();
          else pauseAll();
        }}
        canStep={running || paused}
        onStep={stepAll}
        canRestart={sims.some((r) => r.ran) && state !== 'starting'}
        onRestart={() => void start()}
        canClear={sims.some((r) => r.ran || r.starting)}
        onClear={resetAll}
        progress={progress}
        runCount={sims.filter((r) => r.ran).length}
      />
    );

  return (
    <main
      ref={rootRef}
      className={`embed controls-${options.controls}`}
      data-testid="embed"
      data-state={state}
      data-visible={visible}
      data-until={until ?? ''}
    >
      <header className="embed-head">
        <h1 className="embed-title" data-testid="embed-title">
          {title}
        </h1>
        <a className="embed-open" href={appLink} target="_blank" rel="noopener">
          Open in SSD Lab<span aria-hidden="true"> ↗</span>
        </a>
      </header>

      <ErrorBanner
        title="Some settings in this chart’s address were not used"
        messages={urlErrors}
        onDismiss={() => setUrlErrors([])}
        testId="url-errors"
      />
      <ErrorBanner
        title="The engine reported a problem"
        messages={engineErrors.map((e) => e.message)}
        onDismiss={() => sims.forEach((r) => runs.clearError(r.id))}
        testId="engine-error"
      />
      {notice && (
        <p className="field-error" role="alert" data-testid="embed-notice">
          {notice}
        </p>
      )}

      {/* Locked: the run's progress without its buttons (the page around the chart runs it). */}
      {controls && (canUse ? controls : <div className="embed-locked">{controls}</div>)}

      {show.has('setup') && (
        <div className="embed-setup" role="group" aria-label="Drive">
          <label>
            Drive{' '}
            <select
              value={settings.drive}
              disabled={!canUse || !ready}
              onChange={(e) => update({ drive: e.target.value })}
              data-testid="embed-drive"
            >
              {driveGroups(presets).map((g) => (
                <optgroup key={g.label} label={g.label}>
                  {g.drives.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
          {drive && (
            <label>
              Spare area{' '}
              <select
                value={String(settings.span)}
                disabled={!canUse}
                onChange={(e) => update({ span: Number(e.target.value) })}
                data-testid="embed-span"
              >
                {[...new Set([settings.span, ...scenario.spans])]
                  .sort((a, b) => b - a)
                  .map((s) => spanOption(drive, s))
                  .map((o) => (
                    <option key={o.span} value={String(o.span)}>
                      {o.capacityLabel}, {o.spareLabel}
                    </option>
                  ))}
              </select>
            </label>
          )}
        </div>
      )}

      {show.has('chart') && expMode && (
        <Suspense fallback={<p className="hint">Loading the charts…</p>}>
          {expInfo && (
            <ExperimentView
              info={expInfo}
              settings={setup.experiment}
              onPlot={(plot) => applySetup({ ...setupRef.current, experiment: { ...setupRef.current.experiment, plot } })}
              runs={sims.map((r, i) => ({ key: r.id, name: names.get(r.id) ?? '', color: r.color, entry: expEntries[i] }))}
              focusKey={focused?.id ?? 0}
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
            runs={shownRuns}
            focusId={focused?.id ?? 0}
            store={focusStore ?? EMPTY_STORE}
            series={series}
            names={names}
            metric={metric}
            layout={settings.layout}
            onMetric={(id) => update({ metric: id })}
            onLayout={(id) => update({ layout: id })}
            view={chartView}
            runSeconds={runSeconds}
            markers={markers}
            title={chartTitle}
            height={chartHeight}
            emptyText={emptyText}
            picked={null}
            showOptions={canUse}
            redrawMs={REDRAW_MS}
          />
        </>
      )}
      {until !== null && !expMode && (
        <p className="embed-until" data-testid="embed-until">
          Showing the run up to {formatInt(until)} s
          {focused?.ran && focused.secondsDone <= until && state !== 'finished'
            ? `; the simulation has reached ${formatInt(focused.secondsDone)} s`
            : ''}
          .
        </p>
      )}
      {show.has('stats') && !expMode && focusStore && (
        <RunStats store={focusStore} version={focused!.secondsDone + (until ?? -1)} from={from} to={until ?? to} field="iops" />
      )}
      {show.has('explain') && !expMode && view.explain && <p className="view-explain">{view.explain}</p>}
      {show.has('explain') && expMode && expInfo && <p className="view-explain">{expInfo.about}</p>}

      {focused && !expMode && (show.has('panels') || show.has('inside') || show.has('latency')) && (
        <Suspense fallback={<p className="hint">Loading…</p>}>
          {show.has('panels') && <h2 className="sr-only">What the drive is doing</h2>}
          {show.has('panels') && (
            <Panels
              store={focusStore!}
              context={panelContext}
              chosen={settings.charts}
              onChoose={(charts) => update({ charts })}
              view={view}
              runSeconds={runSeconds}
              markers={markers}
            />
          )}
          {show.has('inside') && (
            <section className="embed-view" aria-label="Inside the drive">
              <h2>Inside the drive</h2>
              <InsideView inside={focused.inside} second={until} />
            </section>
          )}
          {show.has('latency') && (
            <section className="embed-view" aria-label="Latency">
              <h2>Latency</h2>
              <LatencyView
                store={focusStore!}
                inside={focused.inside}
                view={view}
                runSeconds={runSeconds}
                markers={markers}
                picked={null}
              />
            </section>
          )}
        </Suspense>
      )}
    </main>
  );
}
