// Layout and wiring: the runs (each in its own worker) and the settings of the run being edited
// go into the run controls, the comparison chart, the panels and the explanations. The settings
// panel always edits the focused run; the URL holds every run's settings.

import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ColumnStore } from './data/columns';
import { hoverSecond } from './charts/hover';
import { METRICS, resolveXDomain, type ViewSpec } from './data/views';
import type { ChartSeries, TimeMarker } from './charts/TimeChart';
import { ComparisonChart } from './components/ComparisonChart';
import { DesignControls } from './components/DesignControls';
import { ErrorBanner } from './components/ErrorBanner';
import { ExperimentBar, ExperimentLegend } from './components/ExperimentBar';
import { ExperimentPicker } from './components/ExperimentPicker';
import { ExportBar } from './components/ExportBar';
import { InvalidFields, type InvalidFieldsApi } from './components/fields';
import { Guide, guideWanted } from './components/Guide';
import { LazySection } from './components/LazySection';
import { Panels } from './components/Panels';
import { PowerControls } from './components/PowerControls';
import { PowerCutTable } from './components/PowerCutTable';
import { Readout } from './components/Readout';
import { RunBar } from './components/RunBar';
import { RunList } from './components/RunList';
import { RunStats } from './components/RunStats';
import { SetupPanel } from './components/SetupPanel';
import { StateBadge } from './components/StateBadge';
import { ThemeSwitch } from './components/ThemeSwitch';
import type { DrivePreset, EngineState, ParameterInfo, Problem, SimConfig, WorkloadInfo } from './engine/protocol';
import type { Run, RunSet } from './engine/runs';
import type { ExperimentInfo, ExperimentRequest, ExperimentState } from './engine/experimentProtocol';
import { ExperimentSet } from './engine/experiments';
import { MAX_FIO_BYTES, parseFioLog } from './files/fioLog';
import { formatDuration, formatInt, formatPlain, format1, warmFormats } from './format';
import { setupSearch, useLab } from './hooks/useLab';
import { useMountSteps } from './hooks/useMountSteps';
import { useRuns } from './hooks/useRuns';
import { useChartHeight, useMediaQuery } from './hooks/useViewport';
import { labResults } from './labs/results';
import { consistency as scenario } from './scenarios/consistency';
import type { DesignValues } from './settings/options';
import {
  LABELS as EXPERIMENT_LABELS,
  checkExperiment,
  experimentPlace,
  experimentSearch,
  joinSearch,
  parseExperiment,
  settingsOf,
  type ExperimentSettings,
} from './settings/experimentState';
import type { Overrides } from './settings/overrides';
import { DEFAULTS, LAB_KEY, VOCABULARY } from './settings/pageDefaults';
import { placeProblem, refineProblem, type PlacedProblem } from './settings/problems';
import { buildRequest } from './settings/request';
import {
  chartHeading,
  contextFor,
  experimentRequestFor,
  offerFor,
  isModel,
  requestedCuts,
  reproducingConfig,
  runName,
  runRequest,
  type SimRun,
} from './settings/runSetup';
import { ViewTabs } from './components/ViewTabs';
import { checkAgainstEngine, linkSearch, parseLink, type RunSettings } from './settings/urlState';

// Views under the chart that are fetched when first opened.
const InsideView = lazy(() => import('./views/InsideView'));
const LatencyView = lazy(() => import('./views/LatencyView'));
const ExperimentView = lazy(() => import('./views/ExperimentView'));
const EmbedCode = lazy(() => import('./embed/EmbedCode'));
// And what only some visits open: the labs, and the explanation of a second.
const LabList = lazy(() => import('./components/LabList').then((m) => ({ default: m.LabList })));
const LabBar = lazy(() => import('./components/LabPanel').then((m) => ({ default: m.LabBar })));
const LabPanel = lazy(() => import('./components/LabPanel').then((m) => ({ default: m.LabPanel })));
const LabWorksheet = lazy(() => import('./components/LabWorksheet').then((m) => ({ default: m.LabWorksheet })));
const WhyPanel = lazy(() => import('./components/WhyPanel').then((m) => ({ default: m.WhyPanel })));

/** Quiet time after a change before the engine is asked whether it accepts the settings. */
const CHECK_DELAY_MS = 150;

export function App() {
  // The chart and its run controls first, then the settings, then what is under the chart; then
  // the engine loads.
  const mounted = useMountSteps(3);
  const { runs, snap } = useRuns<RunSettings>(false, mounted >= 3);
  useEffect(() => {
    if (mounted < 3) return;
    // (Safari before 18 has no requestIdleCallback.)
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(warmFormats);
    else setTimeout(warmFormats, 50);
  }, [mounted]);
  const catalog = snap.catalog;
  const presets = catalog?.presets ?? NO_PRESETS;
  const workloads = catalog?.workloads ?? NO_WORKLOADS;
  const requestFields = catalog?.requestFields ?? NO_FIELDS;

  // The link's runs become the page's runs once (the first is the one edited).
  const [link] = useState(() => parseLink(window.location.search, DEFAULTS, VOCABULARY));
  // The experiment picked (none: the live run) and its settings; page-wide, in the URL.
  const [expLink] = useState(() => parseExperiment(window.location.search));
  // The open lab (`?lab=ID`), if any.
  const [labId, setLabId] = useState(() => new URLSearchParams(window.location.search).get(LAB_KEY));
  const [experiment, setExperiment] = useState<ExperimentSettings>(expLink.settings);
  const experimentRef = useRef(experiment);
  experimentRef.current = experiment;
  const [urlErrors, setUrlErrors] = useState<string[]>([...link.errors, ...expLink.errors]);
  const [experiments] = useState(() => new ExperimentSet());
  useEffect(() => () => experiments.dispose(), [experiments]);
  const expSnap = useSyncExternalStore(experiments.subscribe, experiments.snapshot);
  const seeded = useRef(false);
  useEffect(() => {
    if (seeded.current) return;
    seeded.current = true;
    addRuns(runs, [link.settings, ...link.compare], link.edit);
  }, [runs, link]);

  const focused = snap.runs.find((r) => r.id === snap.focusId) as SimRun | undefined;
  const settings = focused?.setup ?? link.settings;
  const focusId = focused?.id ?? 0;

  // Handlers keep their identity, so the settings and panels do not re-render for every sample.
  const update = useCallback(
    (patch: Partial<RunSettings>) => {
      const id = runs.snapshot().focusId;
      const current = runs.run(id)?.setup;
      if (current) runs.edit(id, { ...current, ...patch });
    },
    [runs],
  );
  const onWorkload = useCallback((workload: string) => update({ workload }), [update]);
  const onDesign = useCallback((design: DesignValues) => update({ design }), [update]);
  const onOverrides = useCallback((overrides: Overrides) => update({ overrides }), [update]);
  const onCharts = useCallback((charts: readonly string[] | null) => update({ charts }), [update]);
  const onSource = useCallback((source: RunSettings['source']) => update({ source }), [update]);
  const inspect = useCallback((config: SimConfig) => runs.inspect(config), [runs]);

  // Once the engine says what it knows, check each run's drive, workload and options.
  const checkedLink = useRef(false);
  useEffect(() => {
    if (!catalog || checkedLink.current || snap.runs.length === 0) return;
    checkedLink.current = true;
    const errors: string[] = [];
    snap.runs.forEach((r, i) => {
      if (r.kind !== 'sim' || !r.setup) return;
      const checked = checkAgainstEngine(r.setup, DEFAULTS, catalog);
      runs.edit(r.id, checked.settings);
      errors.push(...checked.errors.map((e) => (i === 0 ? e : `compare (run ${i + 1}) ${e}`)));
    });
    const checkedExp = checkExperiment(experimentRef.current, catalog.experiments);
    if (checkedExp.settings !== experimentRef.current) setExperiment(checkedExp.settings);
    errors.push(...checkedExp.errors);
    if (errors.length > 0) setUrlErrors((e) => [...e, ...errors]);
  }, [catalog, snap.runs, runs]);

  // Keep the URL in step with every run's settings, in their order, so the page can be shared.
  // The same array while the runs and their settings stay the same (a run's progress changes
  // neither), so the URL is not rebuilt with every message from a running engine.
  const setupsRef = useRef<readonly { id: number; setup: RunSettings }[]>([]);
  const simSetups = useMemo(() => {
    const next = snap.runs.flatMap((r) => (r.kind === 'sim' && r.setup !== null ? [{ id: r.id, setup: r.setup }] : []));
    const prev = setupsRef.current;
    if (next.length === prev.length && next.every((r, i) => r.id === prev[i].id && r.setup === prev[i].setup)) return prev;
    return (setupsRef.current = next);
  }, [snap.runs]);
  const focusedId = focused?.id;
  useEffect(() => {
    if (focusedId === undefined || simSetups.length === 0) return;
    const edit = Math.max(
      0,
      simSetups.findIndex((r) => r.id === focusedId),
    );
    // The page's own keys (view, panels, metric, layout) are the edited run's.
    const page = { view: settings.view, charts: settings.charts, metric: settings.metric, layout: settings.layout };
    const [first, ...rest] = simSetups.map((r) => r.setup);
    const lab = labId ? `?${LAB_KEY}=${encodeURIComponent(labId)}` : '';
    const search = joinSearch(
      joinSearch(lab, new URLSearchParams(linkSearch({ ...first, ...page }, rest, DEFAULTS, edit))),
      experimentSearch(experiment),
    );
    if (search === window.location.search) return;
    // Not in the task of the click that changed a setting: replacing the URL takes a few ms.
    const timer = window.setTimeout(() =>
      window.history.replaceState(null, '', `${window.location.pathname}${search}${window.location.hash}`),
    );
    return () => window.clearTimeout(timer);
  }, [focusedId, settings, simSetups, experiment, labId]);

  const offer = useMemo(
    () => offerFor(presets, settings.drive, requestFields, isModel(workloads, settings.workload)),
    [presets, settings.drive, requestFields, workloads, settings.workload],
  );
  const request = useMemo(() => buildRequest(settings, offer), [settings, offer]);
  const requestKey = JSON.stringify(request);

  // Ask the engine whether it accepts the settings as they are edited, so its message (naming
  // the control) appears next to the control before Start is pressed.
  const [problem, setProblem] = useState<Problem | null>(null);
  const engineReady = catalog !== null && snap.engineState !== 'loading';
  // The edited run's worker loads while the user reads the page, so Start answers at once.
  useEffect(() => {
    if (engineReady && focusId) runs.prepare(focusId);
  }, [engineReady, focusId, runs]);
  useEffect(() => {
    if (!engineReady) return;
    let current = true;
    const timer = setTimeout(() => {
      const config = JSON.parse(requestKey) as SimConfig;
      const check = (c: SimConfig) => runs.check(c);
      void check(config)
        .then((p) => (p ? refineProblem(p, config, check) : null))
        .then((p) => current && setProblem(p));
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [requestKey, engineReady, runs]);
  // Every parameter of the edited drive with what it accepts, asked of the engine once per drive.
  const [parameterInfo, setParameterInfo] = useState<Readonly<Record<string, ParameterInfo[]>>>({});
  useEffect(() => {
    if (!engineReady || parameterInfo[settings.drive]) return;
    let current = true;
    const drive = settings.drive;
    void runs.describe(drive).then((list) => current && list.length > 0 && setParameterInfo((old) => ({ ...old, [drive]: list })));
    return () => {
      current = false;
    };
  }, [engineReady, settings.drive, parameterInfo, runs]);
  const parameters = parameterInfo[settings.drive] ?? null;

  const placedProblem: PlacedProblem | null = useMemo(
    () => (problem ? placeProblem(problem, settings, offer) : null),
    [problem, settings, offer],
  );

  // Fields whose typed text is not a valid value: Start waits for them.
  const [invalid, setInvalid] = useState<Readonly<Record<string, string>>>({});
  const invalidApi = useMemo<InvalidFieldsApi>(
    () => ({
      report: (key, message) =>
        setInvalid((old) => {
          if ((old[key] ?? null) === message) return old;
          const next = { ...old };
          if (message === null) delete next[key];
          else next[key] = message;
          return next;
        }),
    }),
    [],
  );

  const sims = snap.runs.filter((r): r is SimRun => r.kind === 'sim');
  const pending = sims.filter((r) => r.id !== focusId && !r.ran && !r.starting && r.state !== 'running');
  const drive = presets.find((p) => p.id === settings.drive);
  const startBlocked = !engineReady
    ? 'The engine is loading…'
    : focused?.starting
      ? 'The drive is being erased and filled…'
      : !drive
        ? 'Choose a drive first.'
        : (Object.values(invalid)[0] ?? (placedProblem ? `Start waits: ${placedProblem.message}` : null));

  const start = useCallback(() => {
    if (!focused) return;
    setUrlErrors([]);
    runs.start(focused.id, request, settings);
    for (const r of pending) {
      if (!r.setup) continue;
      runs.start(r.id, runRequest(r.setup, { presets, workloads, requestFields }), r.setup);
    }
  }, [focused, request, settings, pending, runs, presets, requestFields, workloads]);

  const anyRunning = sims.some((r) => r.state === 'running');
  const anyPaused = sims.some((r) => r.state === 'paused');
  const showResume = !anyRunning && anyPaused;
  const pauseResume = () => {
    for (const r of sims) {
      if (showResume && r.state === 'paused') runs.resume(r.id);
      if (!showResume && r.state === 'running') runs.pause(r.id);
    }
  };
  const step = () => {
    for (const r of sims) if (r.state === 'running' || r.state === 'paused') runs.step(r.id);
  };
  const restart = () => {
    for (const r of sims) if (r.ran) runs.start(r.id, r.ran.config, r.ran.setup);
  };
  const clear = () => {
    setPicked(null);
    for (const r of snap.runs) if (r.id !== focusId) runs.remove(r.id);
    if (focused) runs.reset(focused.id);
  };

  // Which run is edited; the page's own settings (view, panels, metric, layout) carry over.
  const focusRun = useCallback(
    (id: number) => {
      const target = runs.run(id);
      const current = runs.run(runs.snapshot().focusId)?.setup;
      if (!target?.setup || !current) return;
      runs.edit(id, { ...target.setup, view: current.view, charts: current.charts, metric: current.metric, layout: current.layout });
      runs.focus(id);
      setPicked(null);
    },
    [runs],
  );
  const addRun = useCallback(() => {
    const current = runs.run(runs.snapshot().focusId)?.setup;
    if (current) runs.add({ ...current });
    setPicked(null);
  }, [runs]);
  const removeRun = useCallback((id: number) => runs.remove(id), [runs]);

  // ---- experiments: the picked one on every run's drive and design, each in its own worker ----
  const expInfo = catalog?.experiments.find((e) => e.id === experiment.id) ?? null;
  const expMode = experiment.id !== null;
  const onExperiment = useCallback((patch: Partial<ExperimentSettings>) => setExperiment((e) => ({ ...e, ...patch })), []);
  const onPlot = useCallback((plot: 'mb_s' | 'iops') => setExperiment((e) => ({ ...e, plot })), []);
  const expRequestFor = useCallback(
    // The workload and power options belong to the live run: an experiment sets its own.
    (setup: RunSettings): ExperimentRequest | null =>
      expInfo ? experimentRequestFor(setup, experiment, expInfo, { presets, requestFields }) : null,
    [expInfo, experiment, presets, requestFields],
  );
  const expRequest = useMemo(() => expRequestFor(settings), [expRequestFor, settings]);
  const expKey = expMode && expRequest ? JSON.stringify(expRequest) : '';
  // The engine checks the request as it is edited (it plans the points; no drive is built).
  const [expProblem, setExpProblem] = useState<Problem | null>(null);
  useEffect(() => {
    if (!expKey || !engineReady) {
      setExpProblem(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      void experiments.check(JSON.parse(expKey) as ExperimentRequest).then((p) => current && setExpProblem(p));
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [expKey, engineReady, experiments]);
  const expPlace = expProblem ? experimentPlace(expProblem.field) : null;
  const pickerProblem =
    expProblem && expPlace
      ? {
          place: expPlace,
          message: `${expPlace === 'precondition' ? 'Preconditioning' : EXPERIMENT_LABELS[expPlace]}: ${expProblem.message}`,
        }
      : null;
  const placedExpProblem: PlacedProblem | null = useMemo(
    () => (expProblem && !expPlace ? placeProblem(expProblem, settings, offer) : null),
    [expProblem, expPlace, settings, offer],
  );
  const expSims = sims.filter((r) => r.setup !== null);
  const expRuns = expSims.map((r) => ({
    key: r.id,
    name: runName(r, presets, requestFields, false),
    color: r.color,
    entry: expSnap.entries.get(r.id) ?? null,
  }));
  const focusedEntry = expSnap.entries.get(focusId) ?? null;
  const expEntries = expRuns.map((r) => r.entry).filter((e): e is NonNullable<typeof e> => e !== null);
  const anyExpRunning = expEntries.some((e) => e.state === 'running');
  const anyExpPaused = expEntries.some((e) => e.state === 'paused');
  const expStartBlocked = !engineReady
    ? 'The engine is loading…'
    : !expInfo
      ? 'Loading the experiments…'
      : !drive
        ? 'Choose a drive first.'
        : (Object.values(invalid)[0] ??
          ((pickerProblem ?? placedExpProblem) ? `Start waits: ${(pickerProblem ?? placedExpProblem)!.message}` : null));
  const startExperiments = () => {
    setUrlErrors([]);
    experiments.keepOnly(expSims.map((r) => r.id));
    for (const r of expSims) {
      const req = expRequestFor(r.setup!);
      if (req) experiments.start(r.id, req);
    }
  };
  const pauseExperiments = () => {
    const resume = !anyExpRunning && anyExpPaused;
    for (const e of expEntries) {
      if (resume && e.state === 'paused') experiments.resume(e.key);
      if (!resume && e.state === 'running') experiments.pause(e.key);
    }
  };
  const stopExperiments = () => {
    for (const e of expEntries) if (e.state === 'running' || e.state === 'paused') experiments.stop(e.key);
  };
  const clearExperiments = () => {
    for (const r of snap.runs) if (r.id !== focusId) runs.remove(r.id);
    experiments.keepOnly([]);
  };
  const removeExpRun = useCallback(
    (id: number) => {
      experiments.remove(id);
      runs.remove(id);
    },
    [runs, experiments],
  );

  // A real drive's fio log, from the file picker or dropped on the chart.
  const [logError, setLogError] = useState<string | null>(null);
  const loadLog = useCallback(
    async (file: File) => {
      setLogError(null);
      if (file.size > MAX_FIO_BYTES) {
        setLogError(`${file.name}: is ${format1(file.size / 2 ** 20)} MiB; the page reads fio logs up to ${MAX_FIO_BYTES / 2 ** 20} MiB`);
        return;
      }
      let text: string;
      try {
        text = await file.text();
      } catch {
        setLogError(`${file.name}: could not be read`);
        return;
      }
      const parsed = parseFioLog(file.name, text);
      if (parsed.error !== undefined) {
        setLogError(parsed.error);
        return;
      }
      if (runs.addLog(file.name, parsed.log.fields, parsed.log.columns) === null) {
        setLogError(`${file.name}: four runs are on the chart already; remove one first`);
        return;
      }
      const metric = parsed.log.kind === 'lat' ? 'mean_latency_us' : runs.run(runs.snapshot().focusId)?.setup?.metric;
      if (metric && metric !== runs.run(runs.snapshot().focusId)?.setup?.metric) update({ metric });
    },
    [runs, update],
  );
  const onDropFile = useCallback((file: File) => void loadLog(file), [loadLog]);
  const onMetric = useCallback((metric: string) => update({ metric }), [update]);
  const onLayout = useCallback((layout: string) => update({ layout }), [update]);

  // The picked second ("why was this second slow?") of the focused run.
  const [picked, setPicked] = useState<number | null>(null);
  const pick = useCallback((second: number) => setPicked(second), []);

  // The first-visit guide.
  const [guide, setGuide] = useState(guideWanted);
  const tryIt = useCallback(() => {
    if (!focused?.setup) return;
    const s = { ...focused.setup, seconds: 600 };
    runs.edit(focused.id, s);
    runs.start(focused.id, runRequest(s, { presets, workloads, requestFields }), s);
  }, [focused, runs, presets, requestFields, workloads]);

  const [settingsOpen, setSettingsOpen] = useState(true);
  const chartHeight = useChartHeight();
  // On a narrow screen the chart comes first and the guide waits below it.
  const narrow = useMediaQuery('(max-width: 960px)');
  const guideBox = guide && !labId ? <Guide onTry={tryIt} onClose={() => setGuide(false)} /> : null;

  // ---- a lab: its steps put runs on the page as a link would; its checkpoints read their results ----
  const labState = useLab(labId);
  const { lab, update: updateLab } = labState;
  const [labListOpen, setLabListOpen] = useState(false);
  const [asideTab, setAsideTab] = useState<'lab' | 'settings'>('lab');
  const [labSetupProblems, setLabSetupProblems] = useState<string[]>([]);
  /** Replaces the page's runs and experiment with a link's; returns what it could not use. */
  const applyLink = useCallback(
    (search: string): string[] => {
      const parsed = parseLink(search, DEFAULTS, VOCABULARY);
      const exp = parseExperiment(search);
      const known = runs.snapshot().catalog;
      const errors = [...parsed.errors, ...exp.errors];
      const list = [parsed.settings, ...parsed.compare].map((s, i) => {
        if (!known) return s;
        const checked = checkAgainstEngine(s, DEFAULTS, known);
        errors.push(...checked.errors.map((e) => (i === 0 ? e : `compare (run ${i + 1}) ${e}`)));
        return checked.settings;
      });
      const checkedExp = known ? checkExperiment(exp.settings, known.experiments) : { settings: exp.settings, errors: [] };
      errors.push(...checkedExp.errors);
      for (const r of runs.snapshot().runs) runs.remove(r.id);
      experiments.keepOnly([]);
      addRuns(runs, list, parsed.edit);
      setExperiment(checkedExp.settings);
      setPicked(null);
      return errors;
    },
    [runs, experiments],
  );
  const setUpStep = useCallback(
    (step: number) => {
      if (!lab) return;
      setLabSetupProblems(applyLink(setupSearch(lab.steps[step].setup)));
      updateLab((p) => ({ ...p, step, setUp: step }));
    },
    [lab, applyLink, updateLab],
  );
  // A lab opened by a bare link (?lab=ID) sets up the step it is at; a link with settings (a reload) keeps them.
  const [labLinkBare] = useState(() => [...new URLSearchParams(window.location.search).keys()].every((k) => k === LAB_KEY));
  const labAutoSetUp = useRef(false);
  useEffect(() => {
    if (!lab || !engineReady || labAutoSetUp.current) return;
    labAutoSetUp.current = true;
    if (labLinkBare) setUpStep(labState.progress.step);
  }, [lab, engineReady, labLinkBare, setUpStep, labState.progress.step]);
  const closeLab = () => {
    setLabId(null);
    setAsideTab('settings');
  };
  const labLink = labId ? `${window.location.origin}${window.location.pathname}?${LAB_KEY}=${encodeURIComponent(labId)}` : '';
  const labOpen = lab !== null;
  const showSettings = !labOpen || asideTab === 'settings';

  const run = focused?.ran ? focused : null;
  const view = scenario.views.find((v) => v.id === settings.view) ?? scenario.views[0];
  const metric = METRICS.find((m) => m.id === settings.metric) ?? METRICS[0];
  const chartView: ViewSpec = useMemo(() => ({ ...view, y: { ...view.y, minTop: metric.minTop } }), [view, metric]);
  // The panels and the latency view under the chart follow a new view in a render of their own,
  // after the main chart has shown it: a click on a view tab paints sooner.
  const belowView = useDeferredValue(view);
  const shown = snap.runs.filter((r) => r.kind === 'log' || r.ran !== null);
  const runSeconds = Math.max(
    run?.ran?.config.seconds ?? settings.seconds,
    ...shown.map((r) => (r.kind === 'log' ? r.secondsDone : (r.ran?.config.seconds ?? 0))),
  );
  const [from, to] = resolveXDomain(view, runSeconds);

  // Names change with settings, not with every second: the charts keep their series meanwhile.
  const nameKey = snap.runs.map((r) => `${r.id}\u0000${runName(r as SimRun, presets, requestFields)}`).join('\u0001');
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
  const nameOf = useCallback((r: Run<RunSettings>) => names.get(r.id) ?? '', [names]);

  const series: ChartSeries[] = useMemo(() => {
    const others = shown.filter((r) => r.id !== focusId);
    const mine = shown.filter((r) => r.id === focusId);
    // The edited run last, so its dots are on top.
    return [...others, ...mine].map((r) => ({
      field: metric.id,
      kind: 'dots' as const,
      color: r.color,
      label: names.get(r.id) ?? '',
      store: r.store,
      key: `run${r.id}`,
    }));
  }, [shown.map((r) => r.id).join(','), focusId, metric, names]);

  // From the run's request and drive, which stay the same objects while its seconds come in.
  const ranConfig = run?.ran?.config;
  const ranParameters = run?.parameters;
  const panelContext = useMemo(
    () =>
      ranConfig && ranParameters
        ? contextFor(ranConfig, ranParameters, workloads)
        : contextFor(request, { ...offer.parameters, ...request.set }, workloads),
    [ranConfig, ranParameters, request, offer, workloads],
  );
  // Cuts the request scheduled and those asked for during the run, each with its outcome once known.
  const liveCuts = focused?.ran ? focused.cutsAsked : NO_CUTS;
  const cutsAsked = useMemo(() => (ranConfig ? requestedCuts(reproducingConfig(ranConfig, liveCuts)) : liveCuts), [ranConfig, liveCuts]);
  const powerCuts = focused?.powerCuts;
  const markers: TimeMarker[] = useMemo(
    () =>
      cutsAsked.map((at) => {
        const report = powerCuts?.find((c) => Math.abs(c.at_s - at) < 1e-6);
        return { at, label: report ? `power cut · ${report.acknowledged_writes_lost} lost` : 'power cut' };
      }),
    [cutsAsked, powerCuts],
  );
  const lastLiveCut = liveCuts.at(-1) ?? null;
  const lastLiveReport = lastLiveCut === null ? null : (powerCuts?.find((c) => Math.abs(c.at_s - lastLiveCut) < 1e-6) ?? null);
  const runLive = focused?.state === 'running' || focused?.state === 'paused';
  const onCut = useCallback(() => runs.cutPower(runs.snapshot().focusId), [runs]);
  const onCapacitors = useCallback((healthy: boolean) => runs.setCapacitors(runs.snapshot().focusId, healthy), [runs]);

  const shownProblem = expMode ? placedExpProblem : placedProblem;
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
        parameters={parameters}
        source={settings.source ?? null}
        onSource={onSource}
        request={request}
        inspect={inspect}
        problem={shownProblem}
        sections={expMode ? EXPERIMENT_SECTIONS : undefined}
      />
    ),
    [
      offer,
      workloads,
      settings.workload,
      settings.design,
      settings.overrides,
      settings.source,
      request,
      parameters,
      shownProblem,
      expMode,
      onWorkload,
      onDesign,
      onOverrides,
      onSource,
      inspect,
    ],
  );

  const runWorkload = run?.ran?.config.workload ?? settings.workload;
  const workloadInfo = workloads.find((w) => w.id === runWorkload);
  const blockBytes = typeof run?.ran?.config.block_bytes === 'number' ? run.ran.config.block_bytes : (workloadInfo?.block_bytes ?? 4096);
  const chartTitle = chartHeading(shown.length, metric, view, runSeconds, blockBytes, runWorkload);
  const runErrors = snap.runs
    .filter((r) => r.error)
    .map((r) => ({ id: r.id, text: `${names.get(r.id)}: ${r.error!.message}`, exp: false }));
  const expErrors = expRuns
    .filter((r) => r.entry?.error)
    .map((r) => ({ id: r.key, text: `${r.name}: ${r.entry!.error!.message}`, exp: true }));
  const engineErrors = expMode ? [...expErrors, ...runErrors] : runErrors;
  const focusName = names.get(focusId) ?? '';
  const runBadge = snap.engineState === 'loading' || !focused ? 'loading' : focused.state;
  const badgeState = expMode && focusedEntry?.request ? EXP_BADGE[focusedEntry.state] : runBadge;

  return (
    <InvalidFields.Provider value={invalidApi}>
      <div className="app">
        <a className="skip" href="#results">
          Skip to the chart
        </a>
        <header className="app-header">
          <div>
            <h1>SSD Lab</h1>
            <p className="tagline">A solid-state drive simulator: change the controller’s design and watch the consequences.</p>
          </div>
          <div className="header-tools">
            <button type="button" className="header-button" onClick={() => setLabListOpen(true)} data-testid="labs-button">
              Labs
            </button>
            <ThemeSwitch />
            <button
              type="button"
              className="header-button settings-toggle"
              aria-expanded={settingsOpen}
              aria-controls="settings"
              onClick={() => setSettingsOpen((o) => !o)}
              data-testid="settings-toggle"
            >
              {settingsOpen ? 'Hide settings' : 'Show settings'}
            </button>
            <StateBadge state={badgeState} starting={focused?.starting ?? false} />
          </div>
        </header>

        <ErrorBanner
          title="Some settings in the link were not used"
          messages={urlErrors}
          onDismiss={() => setUrlErrors([])}
          testId="url-errors"
        />
        <ErrorBanner
          title="The engine reported a problem"
          messages={engineErrors.map((e) => e.text)}
          onDismiss={() => engineErrors.forEach((e) => (e.exp ? experiments.clearError(e.id) : runs.clearError(e.id)))}
          testId="engine-error"
        />
        <ErrorBanner
          title="The lab could not be opened"
          messages={labState.error ? [labState.error] : []}
          onDismiss={closeLab}
          testId="lab-error"
        />
        {labListOpen && (
          <Suspense fallback={null}>
            <LabList open onClose={() => setLabListOpen(false)} current={labId} />
          </Suspense>
        )}
        {lab && (
          <Suspense fallback={null}>
            <LabBar lab={lab} progress={labState.progress} />
          </Suspense>
        )}

        <main className={settingsOpen ? 'layout' : 'layout settings-hidden'}>
          <section className="panel results" id="results" aria-label="Results">
            {expMode ? (
              <>
                <ExperimentBar
                  startLabel={expSims.length > 1 ? `Run ${expSims.length} experiments` : 'Run experiment'}
                  startBlocked={expStartBlocked}
                  onStart={startExperiments}
                  canPause={anyExpRunning || anyExpPaused}
                  paused={!anyExpRunning && anyExpPaused}
                  onPauseResume={pauseExperiments}
                  canStop={anyExpRunning || anyExpPaused}
                  onStop={stopExperiments}
                  canClear={expEntries.length > 0 || expSims.length > 1}
                  onClear={clearExperiments}
                  entry={focusedEntry}
                />
                <ExperimentLegend runs={expRuns} focusKey={focusId} onFocus={focusRun} onRemove={removeExpRun} onAdd={addRun} />
                <div className="results-head">
                  <h2 data-testid="exp-title">{expInfo ? expInfo.title : 'Loading the experiments…'}</h2>
                </div>
                {expInfo && (
                  <Suspense fallback={<p className="hint">Loading the charts…</p>}>
                    <ExperimentView
                      info={expInfo}
                      settings={experiment}
                      onPlot={onPlot}
                      runs={expRuns}
                      focusKey={focusId}
                      height={chartHeight}
                    />
                  </Suspense>
                )}
              </>
            ) : (
              <>
                <RunBar
                  startLabel={pending.length > 0 ? `Start ${pending.length + 1} runs` : focused?.ran ? 'Run again' : 'Start'}
                  startBlocked={startBlocked}
                  onStart={start}
                  canPause={anyRunning || anyPaused}
                  paused={showResume}
                  onPauseResume={pauseResume}
                  canStep={anyRunning || anyPaused}
                  onStep={step}
                  canRestart={sims.some((r) => r.ran) && !sims.some((r) => r.starting)}
                  onRestart={restart}
                  canClear={snap.runs.length > 1 || sims.some((r) => r.ran || r.starting)}
                  onClear={clear}
                  progress={
                    focused?.ran || focused?.starting
                      ? {
                          secondsDone: focused.secondsDone,
                          totalSeconds: focused.ran?.config.seconds ?? settings.seconds,
                          speed: focused.speed,
                          state: focused.state,
                          starting: focused.starting,
                        }
                      : null
                  }
                  runCount={sims.filter((r) => r.ran).length}
                />
                {focused?.ran && (
                  <PowerControls
                    live={runLive}
                    capacitorsHealthy={focused.capacitorsHealthy}
                    fitted={focused.parameters['power.capacitors'] !== false}
                    onCut={onCut}
                    onCapacitors={onCapacitors}
                    pendingAt={lastLiveCut !== null && !lastLiveReport ? lastLiveCut : null}
                    latest={lastLiveReport}
                    store={focused.store}
                    rows={focused.store.length}
                  />
                )}
                {!narrow && !expMode && guideBox}
                <RunList
                  runs={snap.runs as readonly SimRun[]}
                  focusId={focusId}
                  name={nameOf}
                  onFocus={focusRun}
                  onRemove={removeRun}
                  onAdd={addRun}
                  onLoadLog={(f) => void loadLog(f)}
                  logError={logError}
                />

                <div className="results-head">
                  <h2>{drive && shown.length <= 1 ? drive.name : 'Comparison'}</h2>
                  <ViewTabs views={scenario.views} current={view.id} runSeconds={runSeconds} onView={(id) => update({ view: id })} />
                </div>
                <ComparisonChart
                  runs={shown}
                  focusId={focusId}
                  store={focused?.store ?? EMPTY_STORE}
                  series={series}
                  names={names}
                  metric={metric}
                  layout={settings.layout}
                  onMetric={onMetric}
                  onLayout={onLayout}
                  view={chartView}
                  runSeconds={runSeconds}
                  markers={markers}
                  title={chartTitle}
                  height={chartHeight}
                  emptyText={emptyText(snap.engineState, focused, from)}
                  onPick={pick}
                  picked={picked}
                  onDropFile={onDropFile}
                />
                {narrow && !expMode && guideBox}
                {view.explain && (
                  <p className="view-explain" data-testid="view-explain">
                    {view.explain}
                  </p>
                )}
                {focused && <RunStats store={focused.store} version={focused.secondsDone} from={from} to={to} field="iops" />}

                {picked !== null && focused && (
                  <Suspense fallback={null}>
                    <WhyPanel
                      store={focused.store}
                      version={focused.secondsDone}
                      second={picked}
                      runName={focusName}
                      parameters={focused.parameters}
                      onClose={() => {
                        setPicked(null);
                        hoverSecond.set(null);
                      }}
                      onMove={(s) => {
                        setPicked(s);
                        hoverSecond.set(s);
                      }}
                    />
                  </Suspense>
                )}
                {picked === null && run && run.store.length > 0 && (
                  <p className="hint pick-hint">
                    Click a dot, or focus the chart and press Enter, to see why that second was fast or slow.
                  </p>
                )}

                {mounted >= 3 && (
                  <>
                    <Readout run={focused ?? null} />
                    {focused?.summary && (
                      <p
                        className="summary"
                        data-testid="summary"
                        data-engine-ms={focused.summary.elapsed_ms}
                        data-setup-ms={focused.setupMs ?? undefined}
                      >
                        Simulated {formatInt(focused.summary.seconds_done)} s in{' '}
                        {formatDuration(focused.summary.seconds_done / focused.speed)} of your time ({format1(focused.speed)}× real time)
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
                          <InsideView inside={focused.inside} second={picked} />
                        </LazySection>
                        <LazySection title="Latency" hint="percentiles per second and the run’s histogram" testId="section-latency">
                          <LatencyView
                            store={focused.store}
                            inside={focused.inside}
                            view={belowView}
                            runSeconds={runSeconds}
                            markers={markers}
                            onPick={pick}
                            picked={picked}
                          />
                        </LazySection>
                      </>
                    )}
                    <ExportBar
                      run={run}
                      runName={focusName}
                      sampleFields={catalog?.sampleFields ?? []}
                      writes={panelContext.writes}
                      blockBytes={blockBytes}
                      steadyFrom={resolveXDomain(scenario.views[1], run?.ran?.config.seconds ?? settings.seconds)[0]}
                    />

                    {focused && (
                      <Panels
                        store={focused.store}
                        context={panelContext}
                        chosen={settings.charts}
                        onChoose={onCharts}
                        view={belowView}
                        runSeconds={runSeconds}
                        markers={markers}
                        onPick={pick}
                        picked={picked}
                      />
                    )}
                  </>
                )}
              </>
            )}
            {simSetups.length > 0 && (
              <LazySection title="Embed this chart" hint="a live chart for an article or blog" testId="section-embed">
                <EmbedCode
                  runs={simSetups.map((r) => r.setup)}
                  page={settings}
                  experiment={experiment}
                  title={`SSD Lab live simulation: ${simSetups.map((r) => names.get(r.id)).join(' vs ')}`}
                />
              </LazySection>
            )}
          </section>

          <aside
            className={showSettings ? 'panel settings-col' : 'panel settings-col showing-lab'}
            id="settings"
            aria-label={labOpen ? 'Lab and settings' : 'Settings'}
            hidden={!settingsOpen}
          >
            {mounted >= 2 && (
              <>
                {lab && (
                  <>
                    <div className="tabs aside-tabs" role="group" aria-label="Beside the chart">
                      {(['lab', 'settings'] as const).map((t) => (
                        <button
                          key={t}
                          type="button"
                          className={asideTab === t ? 'tab active' : 'tab'}
                          aria-pressed={asideTab === t}
                          onClick={() => setAsideTab(t)}
                          data-testid={`aside-${t}`}
                        >
                          {t === 'lab' ? 'Lab' : 'Settings'}
                        </button>
                      ))}
                    </div>
                    {!showSettings && (
                      <Suspense fallback={null}>
                        <LabPanel
                          lab={lab}
                          progress={labState.progress}
                          onProgress={updateLab}
                          results={labResults(snap.runs, expSnap.entries)}
                          setupBlocked={engineReady ? null : 'The engine is loading…'}
                          onSetUp={setUpStep}
                          setupProblems={labSetupProblems}
                          onClose={closeLab}
                          link={labLink}
                        />
                      </Suspense>
                    )}
                  </>
                )}
                <h2>
                  Settings <span className="editing">of {focusName || 'the run'}</span>
                </h2>
                <ExperimentPicker
                  experiments={catalog?.experiments ?? NO_EXPERIMENTS}
                  settings={experiment}
                  onChange={onExperiment}
                  problem={pickerProblem}
                />
                {!expMode && <p className="hint">{scenario.description}</p>}
                <SetupPanel
                  presets={presets}
                  spans={scenario.spans}
                  settings={settings}
                  onChange={update}
                  problem={expMode ? placedExpProblem : placedProblem}
                  hideDuration={expMode}
                  hideSpan={expInfo !== null && settingsOf(expInfo).spans}
                >
                  {designControls}
                </SetupPanel>
                {shownProblem && shownProblem.place === null && (
                  <p className="field-error" role="alert" data-testid="settings-problem">
                    {shownProblem.message}
                  </p>
                )}
                <p className="hint settings-foot">
                  Changes apply when you press Start{focused?.ran ? ' (or Run again)' : ''}; the URL keeps them, so the page can be shared
                  as a link.
                </p>
              </>
            )}
          </aside>
        </main>

        {lab && (
          <Suspense fallback={null}>
            <LabWorksheet lab={lab} progress={labState.progress} link={labLink} />
          </Suspense>
        )}
        <footer className="app-footer">
          After the performance-consistency tests in AnandTech’s Intel SSD DC S3700 (2012), S3500 (2013) and P3700 (2014) reviews.
        </footer>
      </div>
    </InvalidFields.Provider>
  );
}

const NO_PRESETS: readonly DrivePreset[] = [];
const NO_WORKLOADS: readonly WorkloadInfo[] = [];
const NO_FIELDS: Readonly<Record<string, unknown>> = {};
const NO_CUTS: readonly number[] = [];
const NO_EXPERIMENTS: readonly ExperimentInfo[] = [];
/** The settings sections an experiment takes (it sets its own workloads). */
const EXPERIMENT_SECTIONS = ['design'] as const;
/** The header's badge for an experiment's state. */
const EXP_BADGE: Record<ExperimentState, EngineState> = {
  loading: 'running',
  idle: 'idle',
  running: 'running',
  paused: 'paused',
  stopped: 'finished',
  finished: 'finished',
  error: 'error',
};

/** Puts runs on the page (the first is focused unless `edit` names another). */
function addRuns(runs: RunSet<RunSettings>, list: readonly RunSettings[], edit: number): void {
  const ids = list.map((s) => runs.add(s));
  const edited = ids[edit] ?? ids[0];
  if (edited !== null && edited !== undefined) runs.focus(edited);
}

/** The chart's store before any run exists. */
const EMPTY_STORE = new ColumnStore();

function emptyText(state: string, run: SimRun | undefined, from: number): string {
  if (state === 'loading') return 'Loading the engine…';
  if (!run?.ran && !run?.starting) return 'Choose a drive, a workload and a design, then press Start.';
  return from > 0 ? `Dots appear here once the run passes ${formatPlain(from)} s.` : 'Erasing and filling the drive…';
}
