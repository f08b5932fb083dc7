// An experiment's tables under its charts: each run's rows (the first MAX_TABLE_ROWS), its CSV
// and the CLI command that prints the same CSV.

import { memo } from 'react';
import { download, fileSlug } from '../charts/export';
import type { Cell, ExperimentInfo } from '../engine/experimentProtocol';
import { formatInt, numberFormat } from '../format';
import { sweepArgs } from '../settings/experimentState';
import { COLUMN_WORDS, CORNER_WORDS, type ExperimentRun } from './experimentTable';

const FOUR_DECIMALS = numberFormat({ maximumFractionDigits: 4 });

/** Rows drawn in a table (an IO-consistency run has a row per second). */
const MAX_TABLE_ROWS = 300;

function formatCell(v: Cell): string {
  if (typeof v === 'number') return Number.isInteger(v) ? formatInt(v) : FOUR_DECIMALS.format(v);
  if (v === null) return '';
  return String(v);
}

/** The rows drawn, redrawn only when one of them changes: a fill's rows stream in after them. */
const TableRows = memo(
  function TableRows({ rows }: { rows: readonly Cell[][] }) {
    return (
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {row.map((v, j) => (
              <td key={j} className={typeof v === 'number' ? 'num' : undefined}>
                {typeof v === 'string' ? (CORNER_WORDS[v] ?? v) : formatCell(v)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    );
  },
  (a, b) => a.rows.length === b.rows.length && a.rows.every((row, i) => row === b.rows[i]),
);

export function ExperimentTables({ info, runs, focusKey }: { info: ExperimentInfo; runs: readonly ExperimentRun[]; focusKey: number }) {
  const shown = runs.filter((r) => r.entry?.table && r.entry.table.experiment === info.id);
  if (shown.length === 0) return null;
  return (
    <section className="exp-tables" aria-label="The experiment’s table">
      {shown.map((r) => {
        const t = r.entry!.table!;
        const fileName = `${fileSlug(`${info.id} ${r.entry!.request?.drive ?? ''} ${r.key === focusKey ? '' : r.key}`)}.csv`;
        return (
          <div key={r.key} className="exp-table-wrap" data-testid={`exp-table-${r.key}`}>
            <div className="exp-table-head">
              <h3>
                <span className="run-key" style={{ background: r.color }} aria-hidden="true" /> {r.name}: {t.rows.length}{' '}
                {t.rows.length === 1 ? 'row' : 'rows'}
              </h3>
              <button
                type="button"
                disabled={t.rows.length === 0}
                onClick={() => download(r.entry!.csv, fileName, 'text/csv')}
                data-testid={`exp-csv-${r.key}`}
              >
                Table (CSV)
              </button>
            </div>
            {r.entry!.request && (
              <p className="hint">
                The CSV is what <code data-testid={`exp-cli-${r.key}`}>ssdlab sweep {sweepArgs(r.entry!.request).join(' ')}</code> prints.
              </p>
            )}
            <div className="table-scroll" tabIndex={0} role="region" aria-label={`${r.name}: table`}>
              <table className="exp-table">
                <thead>
                  <tr>
                    {t.columns.map((c) => (
                      <th key={c} scope="col" title={c}>
                        {COLUMN_WORDS[c] ?? c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <TableRows rows={t.rows.slice(0, MAX_TABLE_ROWS)} />
              </table>
            </div>
            {t.rows.length > MAX_TABLE_ROWS && (
              <p className="hint">
                The first {formatInt(MAX_TABLE_ROWS)} of {formatInt(t.rows.length)} rows; the CSV has them all.
              </p>
            )}
          </div>
        );
      })}
    </section>
  );
}
