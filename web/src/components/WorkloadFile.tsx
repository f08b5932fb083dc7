// The workload from a file: a fio job file or a block trace, pasted, dropped or picked. The engine
// reads it (fio_import / trace_summary) and says what it honours, ignores and cannot honour, by
// line; a line it cannot read is named, and the settings stay as they were until a file reads.

import { useEffect, useEffectEvent, useId, useState } from 'react';
import type { ImportReport, SimConfig } from '../engine/protocol';
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

type Note = { line: number; option: string; message: string };

export function WorkloadFile(props: WorkloadFileProps) {
  const id = useId();
  const [text, setText] = useState(props.source?.text ?? '');
  const [name, setName] = useState(props.source?.name ?? 'pasted');
  // A trace's format as chosen; '': as the engine detects it.
  const [format, setFormat] = useState(props.source?.format ?? '');
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
      const trace = { text, name, ...(format ? { format } : {}) };
      const config: SimConfig = { drive, seconds, span, seed, workload, ...(kind === 'fio' ? { fio: text } : { trace }) };
      void inspect(config).then((r) => {
        if (!current) return;
        setReport(r);
        // The job file's own length, so the run's progress counts to it.
        const own = r.ok && typeof r.seconds === 'number' && r.seconds < seconds ? r.seconds : undefined;
        if (r.ok)
          onSource({ kind, name, text, ...(own !== undefined ? { seconds: own } : {}), ...(kind === 'trace' && format ? { format } : {}) });
      });
    }, READ_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, name, format, inspect, onSource]);

  const load = async (file: File) => {
    setTooBig(null);
    if (file.size > MAX_WORKLOAD_FILE_BYTES) {
      setTooBig(
        `${file.name}: is ${formatBytes(file.size)}; the page reads workload files up to ${formatBytes(MAX_WORKLOAD_FILE_BYTES)} (the ssdlab CLI reads any size)`,
      );
      return;
    }
    setName(file.name);
    setFormat('');
    setText(await file.text());
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
          const f = e.dataTransfer.files[0];
          if (!f) return;
          e.preventDefault();
          void load(f);
        }}
        aria-invalid={error !== null}
        data-testid="workload-file-input"
      />
      <div className="file-actions">
        <label className="link file-pick">
          Choose a file…
          <input
            type="file"
            className="sr-only"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void load(f);
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
              setReport(null);
              onSource(null);
            }}
            data-testid="workload-file-remove"
          >
            Use the settings below instead
          </button>
        )}
      </div>
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
