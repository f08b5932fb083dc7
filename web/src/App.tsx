// The app's layout: the header, the results (live runs or an experiment) and the settings beside
// them, over one page store (store/store.ts) read through its selectors. Its additions on top of
// the store: the link (app/useLink.ts), the labs (app/useLabSteps.ts), the first-visit guide.

import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { ExperimentResults } from './app/ExperimentResults';
import { LiveResults } from './app/LiveResults';
import { SettingsAside } from './app/SettingsAside';
import { useLabSteps } from './app/useLabSteps';
import { seedFromUrl, useLink, useUrlWriter } from './app/useLink';
import { ErrorBanner } from './components/ErrorBanner';
import { InvalidFields, type InvalidFieldsApi } from './components/fields';
import { Guide, guideWanted } from './components/Guide';
import { LazySection } from './components/LazySection';
import { StateBadge } from './components/StateBadge';
import { ThemeSwitch } from './components/ThemeSwitch';
import { useMountSteps } from './hooks/useMountSteps';
import { registerOffline } from './offline';
import { usePageStore } from './hooks/usePageStore';
import { useChartHeight, useMediaQuery } from './hooks/useViewport';
import { runEvidence } from './store/evidence';
import * as select from './store/selectors';

const EmbedCode = lazy(() => import('./embed/EmbedCode'));
// What only some visits open: the labs.
const LabList = lazy(() => import('./components/LabList').then((m) => ({ default: m.LabList })));
const LabBar = lazy(() => import('./components/LabPanel').then((m) => ({ default: m.LabBar })));
const LabWorksheet = lazy(() => import('./components/LabWorksheet').then((m) => ({ default: m.LabWorksheet })));
const HowClose = lazy(() => import('./components/HowClose').then((m) => ({ default: m.HowClose })));

const STORE_OPTIONS = {};

export function App() {
  // The chart and its run controls first, then the settings, then what is under the chart; then
  // the engine loads.
  const mounted = useMountSteps(3);
  const { store, state } = usePageStore(STORE_OPTIONS, mounted >= 3, seedFromUrl);

  const { urlErrors, clearUrlErrors, applyLink } = useLink(store);
  const ready = select.engineReady(state);
  useEffect(() => {
    if (ready) registerOffline();
  }, [ready]);
  const labs = useLabSteps(applyLink, ready);
  const { lab } = labs.labState;
  useUrlWriter(state, labs.labSearch);

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
  const firstInvalid = Object.values(invalid)[0] ?? null;

  // The first-visit guide: its "try it" starts the edited run at once, for 600 s.
  const [guide, setGuide] = useState(guideWanted);
  const tryIt = useCallback(() => store.startEdited({ seconds: 600 }), [store]);
  const [labListOpen, setLabListOpen] = useState(false);
  const [howCloseOpen, setHowCloseOpen] = useState(false);
  const openHowClose = useCallback(() => setHowCloseOpen(true), []);
  const [settingsOpen, setSettingsOpen] = useState(true);
  const chartHeight = useChartHeight();
  // On a narrow screen the chart comes first and the guide waits below it.
  const narrow = useMediaQuery('(max-width: 960px)');
  const guideBox = guide && !labs.labId ? <Guide onTry={tryIt} onClose={() => setGuide(false)} /> : null;

  const expMode = state.experiment.id !== null;
  const focused = select.editedRun(state);
  const engineErrors = select.engineErrors(state);
  const sims = state.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
  const names = select.runNames(state, true);
  const results = { store, state, invalid: firstInvalid, chartHeight, onStart: clearUrlErrors };
  const driveName = (id: string) => state.catalog?.presets.find((p) => p.id === id)?.name ?? id;

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
            <StateBadge state={select.badgeState(state)} starting={focused?.starting ?? false} />
          </div>
        </header>

        <ErrorBanner title="Some settings in the link were not used" messages={urlErrors} onDismiss={clearUrlErrors} testId="url-errors" />
        <ErrorBanner
          title="The engine reported a problem"
          messages={engineErrors.map((e) => e.text)}
          onDismiss={() => store.dismissErrors()}
          testId="engine-error"
        />
        <ErrorBanner
          title="The lab could not be opened"
          messages={labs.labState.error ? [labs.labState.error] : []}
          onDismiss={labs.close}
          testId="lab-error"
        />
        {labListOpen && (
          <Suspense fallback={null}>
            <LabList open onClose={() => setLabListOpen(false)} current={labs.labId} />
          </Suspense>
        )}
        {lab && (
          <Suspense fallback={null}>
            <LabBar lab={lab} progress={labs.labState.progress} />
          </Suspense>
        )}

        <main className={settingsOpen ? 'layout' : 'layout settings-hidden'}>
          <section className="panel results" id="results" aria-label="Results">
            {expMode ? (
              <ExperimentResults {...results} />
            ) : (
              <LiveResults {...results} full={mounted >= 3} guide={guideBox} narrow={narrow} onHowClose={openHowClose} />
            )}
            {sims.length > 0 && (
              <LazySection title="Embed this chart" hint="a live chart for an article or blog" testId="section-embed">
                <EmbedCode
                  runs={sims.map((r) => r.setup!)}
                  page={select.settingsOf(state)}
                  experiment={state.experiment}
                  title={`SSD Lab live simulation: ${sims.map((r) => names.get(r.id)).join(' vs ')}`}
                />
              </LazySection>
            )}
          </section>
          <SettingsAside store={store} state={state} labs={labs} hidden={!settingsOpen} mounted={mounted >= 2} />
        </main>

        {lab && (
          <Suspense fallback={null}>
            <LabWorksheet lab={lab} progress={labs.labState.progress} link={labs.labLink} />
          </Suspense>
        )}
        {howCloseOpen && (
          <Suspense fallback={null}>
            <HowClose open onClose={() => setHowCloseOpen(false)} evidence={runEvidence(state)} driveName={driveName} />
          </Suspense>
        )}
        <footer className="app-footer">
          After the performance-consistency tests in AnandTech’s Intel SSD DC S3700 (2012), S3500 (2013) and P3700 (2014) reviews.{' '}
          <button type="button" className="link-button" onClick={openHowClose} data-testid="how-close-open">
            How close is the model to every published figure?
          </button>
        </footer>
      </div>
    </InvalidFields.Provider>
  );
}
