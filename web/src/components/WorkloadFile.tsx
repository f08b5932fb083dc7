// The workload from a file: a fio job file or a block trace, pasted, dropped or picked. The engine
// reads it (fio_import / trace_summary) and says what it honours, ignores and cannot honour, by
// line; a line it cannot read is named, and the settings stay as they were until a file reads.

import { useEffect, useEffectEvent, useId, useState } from 'react';
import type { ImportReport, SimConfig } from '../engine/protocol';
import { fileFields } from '../settings/request';
import { formatBytes, formatCount } from '../format';
import type { WorkloadFile as File_ } from '../settings/urlState';
import { FieldError } from './fields';

/** The page reads workload files up to this size (the request carries the text). */
export const MAX_WORKLOAD_FILE_BYTES = 8 << 20;
const READ_DELAY_MS = 300;

export interface WorkloadFileProps {
  /** The file in effect, if any. */
  source: File_ | null;
  onSource(source: File_ | null): void;
  /** The request the file would join (drive, span, seconds), for the engine to read it against. */
  base: SimConfig;
  inspect(config: SimConfig): Promise<ImportReport>;
}

/** A fio job file has [sections]; anything else is read as a block trace. A section line may
 * end in a comment after a blank (`[job] # 4k writes`) and its name hold a bracket (`[job1]]`),
 * as fio and the engine's import read them. */
export function fileKind(text: string): 'fio' | 'trace' {
  return /^\s*\[[^\n]*\](?:\s+[;#].*)?\s*$/m.test(text) ? 'fio' : 'trace';
}

/** A file as chosen or dropped: its name and text. */
export interface GivenFile {
  name: string;
  text: string;
}

/** Several files chosen at once are a fio job file and the files it includes (fio's
 * `include FILE`), which the engine matches by file name to the include lines. The job file is
 * the one with [sections] (an included file holds options only); a sentence when that is not one. */
export function jobWithIncludes(files: readonly GivenFile[]): { job: GivenFile; includes: Record<string, string> } | string {
  if (files.length === 1) return { job: files[0], includes: {} };
  const names = files.map((f) => f.name).join(', ');
  const jobs = files.filter((f) => fileKind(f.text) === 'fio');
  if (jobs.length !== 1)
    return `${names}: several files are one fio job file (with [sections]) and the files it includes; ${
      jobs.length === 0 ? 'none of these has' : `${jobs.map((f) => f.name).join(', ')} each have`
    } [sections]`;
  const includes = Object.fromEntries(files.filter((f) => f !== jobs[0]).map((f) => [f.name, f.text]));
  return { job: jobs[0], includes };
}

type Note = { line: number; option: string; message: string };

export function WorkloadFile(props: WorkloadFileProps) {
  const id = useId();
  const [text, setText] = useState(props.source?.text ?? '');
  const [name, setName] = useState(props.source?.name ?? 'pasted');
  // A trace's format as chosen; '': as the engine detects it.
  const [format, setFormat] = useState(props.source?.format ?? '');
  // The files a fio job file includes, chosen with it, by file name.
  const [includes, setIncludes] = useState<Record<string, string>>(props.source?.includes ?? {});
  const [report, setReport] = useState<ImportReport | null>(null);
  const [tooBig, setTooBig] = useState<string | null>(null);
  const { base, inspect, onSource } = props;
  // The run the box's text is read into, as it is when the read starts (not a reason to read again).
  const readBase = useEffectEvent(() => base);

  // An emptied box has nothing to report (adjusted while rendering, not in an effect).
  if (report !== null && text.trim() === '') setReport(null);

  // Read what is in the box once typing pauses; apply it only when the engine can read it.
  useEffect(() => {
    if (text.trim() === '') return;
    let current = true;
    const timer = setTimeout(() => {
      const kind = fileKind(text);
      const { drive, seconds, span, seed, workload } = readBase();
      const source: File_ = {
        kind,
        name,
        text,
        ...(kind === 'fio' && Object.keys(includes).length > 0 ? { includes } : {}),
        ...(kind === 'trace' && format ? { format } : {}),
      };
      void inspect({ drive, seconds, span, seed, workload, ...fileFields(source) }).then((r) => {
        if (!current) return;
        setReport(r);
        // The job file's own length, so the run's progress counts to it.
        const own = r.ok && typeof r.seconds === 'number' && r.seconds < seconds ? r.seconds : undefined;
        if (r.ok) onSource({ ...source, ...(own !== undefined ? { seconds: own } : {}) });
      });
    }, READ_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, name, format, includes, inspect, onSource]);

  // One file, or a fio job file with the files it includes.
  const load = async (chosen: readonly File[]) => {
    setTooBig(null);
    const big = chosen.find((f) => f.size > MAX_WORKLOAD_FILE_BYTES);
    if (big) {
      setTooBig(
        `${big.name}: is ${formatBytes(big.size)}; the page reads workload files up to ${formatBytes(MAX_WORKLOAD_FILE_BYTES)} (the ssdlab CLI reads any size)`,
      );
      return;
    }
    const files = await Promise.all(chosen.map(async (f) => ({ name: f.name, text: await f.text() })));
    const picked = jobWithIncludes(files);
    if (typeof picked === 'string') {
      setTooBig(picked);
      return;
    }
    setName(picked.job.name);
    setFormat('');
    setIncludes(picked.includes);
    setText(picked.job.text);
  };

  const error = tooBig ?? (report && !report.ok ? `${report.field === 'trace' ? 'Trace' : 'fio job file'}: ${report.message}` : null);
  return (
    <div className="field workload-file" data-testid="workload-file">
      <label htmlFor={id} className="field-label">
        Workload from a file <span className="unit">(a fio job file or a block trace)</span>
      </label>
      <textarea
        id={id}
        rows={4}
        spellCheck={false}
        value={text}
        placeholder={'Paste or drop a fio job file ([global], rw=randwrite, …) or a block trace (MSR, blkparse, DiskSim, fio iolog)'}
        onChange={(e) => {
          setName('pasted');
          setText(e.target.value);
        }}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          const files = [...e.dataTransfer.files];
          if (files.length === 0) return;
          e.preventDefault();
          void load(files);
        }}
        aria-invalid={error !== null}
        data-testid="workload-file-input"
      />
      <div className="file-actions">
        <label className="link file-pick">
          Choose a file…
          <input
            type="file"
            multiple
            className="sr-only"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              if (files.length > 0) void load(files);
              e.target.value = '';
            }}
            data-testid="workload-file-pick"
          />
        </label>
        {props.source && (
          <button
            type="button"
            className="link"
            onClick={() => {
              setText('');
              setIncludes({});
              setReport(null);
              onSource(null);
            }}
            data-testid="workload-file-remove"
          >
            Use the settings below instead
          </button>
        )}
      </div>
      {fileKind(text) === 'fio' && Object.keys(includes).length > 0 && (
        <p className="hint" data-testid="workload-file-includes">
          With the files it includes: {Object.keys(includes).join(', ')}
        </p>
      )}
      {fileKind(text) === 'trace' && text.trim() !== '' && <TraceFormat report={report} format={format} onFormat={setFormat} />}
      <FieldError message={error} testId="workload-file-error" />
      {props.source && error && <p className="hint">Still in effect: {props.source.name} (the last file that read).</p>}
      {report?.ok && <ImportSummary report={report} kind={fileKind(text)} name={name} />}
    </div>
  );
}

/** The trace's format: as detected (the engine's guess shown) or as chosen, as `--format` names it
 * on the command line; the engine sends its formats with each answer about a trace. */
function TraceFormat({ report, format, onFormat }: { report: ImportReport | null; format: string; onFormat(format: string): void }) {
  const id = useId();
  const answer = report as { formats?: [string, string][]; detected?: string | null } | null;
  const formats = answer?.formats ?? [];
  if (formats.length === 0) return null;
  return (
    <p className="trace-format">
      <label htmlFor={id}>Trace format </label>
      <select id={id} value={format} onChange={(e) => onFormat(e.target.value)} data-testid="workload-file-format">
        <option value="">{answer?.detected ? `as detected: ${answer.detected}` : 'detect from its first lines'}</option>
        {formats.map(([n, what]) => (
          <option key={n} value={n}>
            {n}: {what}
          </option>
        ))}
      </select>
    </p>
  );
}

function ImportSummary({ report, kind, name }: { report: Extract<ImportReport, { ok: true }>; kind: 'fio' | 'trace'; name: string }) {
  if (kind === 'trace') {
    return (
      <div className="import-report" data-testid="import-report">
        <p>
          <strong>Block trace {name}</strong> ({String(report.format)}
          {typeof report.detected === 'string' && report.detected !== report.format && `, chosen; detected as ${report.detected}`}):{' '}
          {formatCount(Number(report.records))} commands over {Number(report.duration_s).toFixed(1)} s. It sets the workload; the run ends
          with it.
        </p>
        <pre>{String(report.text)}</pre>
      </div>
    );
  }
  const phases = (report.phases ?? []) as { name: string; runtime_s: number; jobs: Record<string, unknown>[] }[];
  const notes = (key: string) => (report[key] ?? []) as Note[];
  const list = (key: string, title: string) =>
    notes(key).length > 0 && (
      <>
        <h3>{title}</h3>
        <ul data-testid={`import-${key}`}>
          {notes(key).map((n, i) => (
            <li key={i}>
              {n.line > 0 ? `line ${n.line}: ` : ''}
              <code>{n.option}</code> {n.message}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <div className="import-report" data-testid="import-report">
      <p>
        <strong>fio job file {name}</strong>: {phases.length} {phases.length === 1 ? 'phase' : 'phases'}, runs {String(report.seconds)} s.
        It sets the workload (the settings below that it covers wait).
      </p>
      <h3>Honoured</h3>
      <ul data-testid="import-honoured">
        {phases.flatMap((p) =>
          p.jobs.map((j, i) => (
            <li key={`${p.name}-${i}`}>
              {p.name !== String(j.name) && `${p.name}: `}
              <strong>{String(j.name)}</strong>: {String(j.read_percent)}% reads, {String(j.random_percent)}% random, sizes{' '}
              {String(j.write_sizes)}, queue depth {String(j.queue_depth)}
              {Number(j.rate_iops) > 0 && `, at most ${formatCount(Number(j.rate_iops))} IO/s`}
            </li>
          )),
        )}
      </ul>
      {list('ignored', 'Ignored (no effect on the drive)')}
      {list('unsupported', 'Not honoured (the run goes on without them)')}
      {list('notes', 'Notes')}
    </div>
  );
}
