// Taking a run away: its samples as the CLI's CSV and as fio logs, its setup as a config file
// the CLI runs (with the power cuts asked for during the run), and the page as a link.

import { useMemo, useState } from 'react';
import { download, fileSlug } from '../charts/export';
import type { Run } from '../engine/run';
import { cliCommand, configJson, fioLog, samplesCsv, type FioLogType } from '../files/exports';
import { reproducingConfig } from '../settings/runSetup';

export interface ExportBarProps<S> {
  run: Run<S> | null;
  runName: string;
  sampleFields: readonly string[];
  /** The run's workload writes (fio's ddir 1), and its request size in bytes. */
  writes: boolean;
  blockBytes: number;
  /** Where the steady state starts (the CLI's --steady-from for short runs). */
  steadyFrom: number;
}

export function ExportBar<S>({ run, runName, sampleFields, writes, blockBytes, steadyFrom }: ExportBarProps<S>) {
  const [copied, setCopied] = useState<string | null>(null);
  const base = fileSlug(runName);
  const hasSamples = run !== null && run.store.length > 0 && run.kind === 'sim';
  const ran = run?.ran;
  const cutsAsked = run?.cutsAsked;
  const config = useMemo(() => (ran && cutsAsked ? reproducingConfig(ran.config, cutsAsked) : null), [ran, cutsAsked]);
  const saveLog = (type: FioLogType) => {
    if (!run) return;
    download(fioLog(run.store, type, writes, blockBytes), `${base}_${type}.1.log`);
  };
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied('Link copied: it opens this page with these settings.');
    } catch {
      setCopied(`Copy this link: ${window.location.href}`);
    }
  };
  return (
    <section className="exports" aria-label="Save and share">
      <h3>Save and share</h3>
      <div className="export-buttons">
        <button
          type="button"
          disabled={!hasSamples}
          onClick={() => download(samplesCsv(run!.store, sampleFields), `${base}.csv`, 'text/csv')}
          data-testid="export-csv"
        >
          Samples (CSV)
        </button>
        {(['iops', 'lat', 'bw'] as const).map((t) => (
          <button key={t} type="button" disabled={!hasSamples} onClick={() => saveLog(t)} data-testid={`export-fio-${t}`}>
            fio {t} log
          </button>
        ))}
        <button
          type="button"
          disabled={!config}
          onClick={() => download(configJson(config!), `${base}.json`, 'application/json')}
          data-testid="export-json"
        >
          Setup (JSON)
        </button>
        <button type="button" onClick={() => void copyLink()} data-testid="copy-link">
          Copy link
        </button>
      </div>
      <p className="hint">
        The CSV has the columns of <code>ssdlab run --csv</code>; the JSON reproduces the run with{' '}
        <code data-testid="cli-command">{cliCommand(`${base}.json`, config?.seconds ?? 2000, steadyFrom)}</code>. The fio logs are per
        second, as fio writes them with <code>log_avg_msec=1000</code>.
      </p>
      {copied && (
        <p className="hint" role="status">
          {copied}
        </p>
      )}
    </section>
  );
}
