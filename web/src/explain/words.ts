// Plain words for what the engine names in ids: workloads, and the terms a student meets first.

export interface WorkloadWords {
  name: string;
  /** One line: what the host does. */
  line: string;
}

/** The engine's workloads by id. An id not listed here is shown with the engine's own words. */
const WORKLOADS: Readonly<Record<string, WorkloadWords>> = {
  consistency: {
    name: 'IO consistency (the articles’ test)',
    line: '4 KB random writes at queue depth 32 over the whole tested span, as in the S3700 review.',
  },
  'random-write': { name: 'Random writes', line: 'Writes to random places across the span.' },
  'random-read': { name: 'Random reads', line: 'Reads from random places in the filled data: no cleaning needed.' },
  'mixed-70-30': {
    name: 'Mixed 70 % reads / 30 % writes',
    line: 'The P3700 review’s mixed workload: random, seven reads for every three writes.',
  },
  'hot-cold': {
    name: 'Hot and cold data',
    line: '90 % of writes go to 10 % of the span, as with a busy database table beside archived files.',
  },
  'sequential-write': { name: 'Sequential writes (128 KB)', line: 'Large writes one after another, like copying a big file.' },
  'sequential-read': { name: 'Sequential reads (128 KB)', line: 'Large reads one after another, like reading a big file.' },
  'redo-log': {
    name: 'Database redo log (1.5 KB writes)',
    line: 'Small 1.5 KB writes, one at a time and not aligned to 4 KB, as a database journal does.',
  },
  'write-trim': {
    name: 'Random writes with TRIM',
    line: 'Random writes where one command in ten deletes data (TRIM), so the drive knows it need not keep it.',
  },
  swingbench: { name: 'Swingbench OLTP (model of the trace)', line: '' },
  'sql-update-daily-stats': { name: 'SQL Server UpdateDailyStats (model of the trace)', line: '' },
  'sql-weekly-maintenance': { name: 'SQL Server WeeklyMaintenance (model of the trace)', line: '' },
  'storage-bench-2011-heavy': { name: 'Storage Bench 2011 Heavy (model of the trace)', line: '' },
  'storage-bench-2011-light': { name: 'Storage Bench 2011 Light (model of the trace)', line: '' },
};

/** The engine's own words, as a sentence: "model of the ... [000]" -> "Model of the ....". */
function sentence(engineDescription: string): string {
  const line = engineDescription.replace(/\s*\[[\d, ]+\]/g, '');
  return line ? `${line.charAt(0).toUpperCase()}${line.slice(1)}.` : '';
}

export function workloadWords(id: string, engineDescription = ''): WorkloadWords {
  const known = WORKLOADS[id];
  // A model's description is the engine's (its published figures), so it stays in step.
  if (known) return known.line ? known : { name: known.name, line: sentence(engineDescription) };
  return { name: id, line: sentence(engineDescription) };
}

/** What spare area is, for the spare-area control. */
export const SPARE_AREA_EXPLAINED =
  'Spare area (over-provisioning) is flash the drive keeps for itself beyond what the host can fill. ' +
  'Before a block of flash can be rewritten it must be erased, and the garbage collector first copies ' +
  'the still-valid pages out of it. More spare area means emptier blocks to clean, less copying, and ' +
  'faster, steadier writes. As in the S3500 review, the test fills and rewrites only part of the drive ' +
  '(the “span”); the rest becomes spare. Each choice is labelled with the capacity a vendor would sell ' +
  'with that much spare.';
