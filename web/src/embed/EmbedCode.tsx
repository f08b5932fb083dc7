// "Embed this chart": the <iframe> snippet for the page's current setup, with what the article's
// reader may do, what the chart shows, and which sites may drive it by message. Loaded when the
// section is opened. The keys and the snippet are embedState.ts's, so they match what the embed
// reads; docs/EMBEDDING.md explains every one.

import { useId, useMemo, useState } from 'react';
import type { ExperimentSettings } from '../settings/experimentState';
import type { RunSettings } from '../settings/urlState';
import type { ThemeChoice } from '../theme';
import './EmbedCode.css';
import { checkOrigin, CONTROLS, EMBED_DEFAULTS, embedSnippet, PARTS, type Controls, type EmbedSetup, type Part } from './embedState';

export interface EmbedCodeProps {
  /** Every run's settings, the first one first. */
  runs: readonly RunSettings[];
  /** The run being edited: its view, panels, metric and layout are the page's. */
  page: RunSettings;
  experiment: ExperimentSettings;
  /** The iframe's title, read by screen readers. */
  title: string;
}

const CONTROL_LABELS: Record<Controls, string> = {
  shown: 'Shown: the reader runs it',
  locked: 'Locked: shown, your page runs it',
  hidden: 'Hidden: only the chart',
};
const PART_LABELS: Record<Part, string> = {
  setup: 'Drive and spare-area pickers',
  chart: 'The chart',
  stats: 'Lowest and highest second',
  explain: 'What to look for',
  evidence: 'Published figures and this run’s verdict',
  panels: 'Panels under the chart',
  inside: 'Inside the drive',
  latency: 'Latency',
};
const THEME_LABELS: Record<ThemeChoice, string> = { system: "The reader's system", light: 'Light', dark: 'Dark' };

export default function EmbedCode({ runs, page, experiment, title }: EmbedCodeProps) {
  const id = useId();
  const [controls, setControls] = useState<Controls>('shown');
  const [autoplay, setAutoplay] = useState(true);
  const [show, setShow] = useState<readonly Part[]>(EMBED_DEFAULTS.show);
  const [theme, setTheme] = useState<ThemeChoice>('system');
  const [originText, setOriginText] = useState('');
  const [copied, setCopied] = useState<string | null>(null);

  const origins = useMemo(
    () =>
      originText
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    [originText],
  );
  const originError = origins.map(checkOrigin).find((e) => e !== null) ?? null;
  const snippet = useMemo(() => {
    const [first, ...rest] = runs;
    if (!first) return '';
    const setup: EmbedSetup = {
      settings: { ...first, view: page.view, charts: page.charts, metric: page.metric, layout: page.layout },
      compare: rest,
      experiment,
      // A bad origin is named at its field and left out of the code meanwhile.
      options: { controls, show, theme, autoplay, origins: originError ? [] : origins.map((o) => o.replace(/\/$/, '')), id: null },
    };
    return embedSnippet(window.location.href, setup, title);
  }, [runs, page, experiment, controls, show, theme, autoplay, origins, originError, title]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('Embed code copied: paste it into your article’s HTML.');
    } catch {
      setCopied('Select the code above and copy it.');
    }
  };
  const togglePart = (p: Part) => {
    const next = show.includes(p) ? show.filter((x) => x !== p) : [...show, p];
    if (next.length > 0) setShow(PARTS.filter((x) => next.includes(x)));
  };

  return (
    <div className="embed-code" data-testid="embed-code">
      <p className="hint">
        An article can show this setup as a live chart between its paragraphs: paste the code below into its HTML. The chart runs in the
        reader’s browser, only while it is in view.
      </p>
      <div className="embed-code-options">
        <label>
          Reader’s controls{' '}
          <select value={controls} onChange={(e) => setControls(e.target.value as Controls)} data-testid="embed-controls">
            {CONTROLS.map((c) => (
              <option key={c} value={c}>
                {CONTROL_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Theme{' '}
          <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)} data-testid="embed-theme">
            {(Object.keys(THEME_LABELS) as ThemeChoice[]).map((t) => (
              <option key={t} value={t}>
                {THEME_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={autoplay} onChange={(e) => setAutoplay(e.target.checked)} data-testid="embed-autoplay" /> Start
          when the reader scrolls to it
        </label>
      </div>
      <fieldset className="embed-code-parts">
        <legend>What it shows</legend>
        {PARTS.map((p) => (
          <label key={p} className="check">
            <input type="checkbox" checked={show.includes(p)} onChange={() => togglePart(p)} data-testid={`embed-part-${p}`} />{' '}
            {PART_LABELS[p]}
          </label>
        ))}
      </fieldset>
      <label className="field" htmlFor={`${id}-origin`}>
        <span>Sites that may control it (optional)</span>
      </label>
      <input
        id={`${id}-origin`}
        type="text"
        inputMode="url"
        placeholder="https://blog.example"
        value={originText}
        onChange={(e) => setOriginText(e.target.value)}
        aria-describedby={`${id}-origin-hint`}
        aria-invalid={originError !== null}
        data-testid="embed-origin"
      />
      <p className="hint" id={`${id}-origin-hint`}>
        The <code>origin</code> parameter: pages at these addresses (scheme, host and port, separated by commas) may start, pause, step and
        seek the chart with messages and hear its samples. Leave it empty if your page only shows the chart; the chart then answers no other
        site.
      </p>
      {originError && (
        <p className="field-error" role="alert" data-testid="embed-origin-error">
          Sites that may control it: {originError.replace(/^origin: /, '')}
        </p>
      )}
      <textarea
        className="embed-snippet"
        readOnly
        value={snippet}
        rows={5}
        aria-label="Embed code"
        data-testid="embed-snippet"
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="export-buttons">
        <button type="button" onClick={() => void copy()} disabled={!snippet} data-testid="copy-embed">
          Copy embed code
        </button>
        <a className="embed-example" href="articles/consistency.html" target="_blank" rel="noopener">
          An example article
        </a>
      </div>
      {copied && (
        <p className="hint" role="status">
          {copied}
        </p>
      )}
    </div>
  );
}
