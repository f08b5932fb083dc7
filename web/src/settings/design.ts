// The variants a user can switch, as one table. Each entry is a control in the page, a key in the
// URL, and a patch of the engine's run request: drive parameters (`set`, by path) and/or
// run-request fields. Adding an option is adding an entry here; an entry whose parameter or
// field this engine does not know is not offered (see `isAvailable`).
//
// Nothing here checks ranges the engine owns: the engine validates the request and its message
// names the field, which the page shows next to the option that sets it (see `optionForField`).

export type ParamValue = string | number | boolean;

/** Where an option is shown: the workload, the test bed (preconditioning, an array), the
 * controller's design, or power loss. */
export type SectionId = 'workload' | 'bed' | 'design' | 'power';

/** What an option needs the engine to know before it is offered. */
export type Requirement = { param: string } | { field: string };

export interface Choice {
  value: string;
  label: string;
  /** One sentence for a student: what it does and which article behaviour it reproduces. */
  explain: string;
  /** Drive parameters this choice sets, by path. */
  set?: Record<string, ParamValue>;
  /** Run-request fields this choice sets. */
  request?: Record<string, ParamValue>;
}

export interface ChoiceOption {
  kind: 'choice';
  id: string;
  section: SectionId;
  label: string;
  choices: readonly Choice[];
  requires?: Requirement;
}

/**
 * Where a value goes: a drive parameter (times `scale`), a run-request field, written into
 * `template` when given (`zipf:{}` makes the field `zipf:1.2`), or one key of a run-request
 * field that is an object (`raid.drives`).
 */
export type NumberTarget = { param: string; scale?: number } | { field: string; template?: string } | { field: string; key: string };

export interface NumberOption {
  kind: 'number';
  id: string;
  section: SectionId;
  label: string;
  unit?: string;
  explain: string;
  whole: boolean;
  /** What the page accepts in a URL or the input; the engine has the last word. */
  min: number;
  max: number;
  to: NumberTarget;
  /** Offered only while another option has this value; then `initial` applies until changed. */
  shownWhen?: { option: string; value: string };
  initial?: number;
  /** Empty means the engine's own default (e.g. the workload's block size). */
  optional?: boolean;
  requires?: Requirement;
}

export interface ListOption {
  kind: 'list';
  id: string;
  section: SectionId;
  label: string;
  unit?: string;
  explain: string;
  /** Each entry must be > min (a run-request field taking a list of numbers). */
  min: number;
  to: { field: string };
  requires?: Requirement;
}

/** Text the engine reads (a bssplit, a zone list), into a run-request field. */
export interface TextOption {
  kind: 'text';
  id: string;
  section: SectionId;
  label: string;
  explain: string;
  placeholder: string;
  to: { field: string; template?: string };
  shownWhen?: { option: string; value: string };
  initial?: string;
  requires?: Requirement;
}

export type DesignOption = ChoiceOption | NumberOption | ListOption | TextOption;
export type DesignValue = string | number | readonly number[];
/** Option id -> value, holding only what the user changed from the drive's own design. */
export type DesignValues = Readonly<Record<string, DesignValue>>;

export const DESIGN_OPTIONS: readonly DesignOption[] = [
  {
    kind: 'number',
    id: 'qd',
    section: 'workload',
    label: 'Queue depth',
    explain:
      'Commands the host keeps outstanding (the articles test at 32; SATA drives accept 32 at a time); ' +
      'empty uses the workload’s own depth.',
    whole: true,
    min: 1,
    max: 65_536,
    optional: true,
    to: { field: 'queue_depth' },
  },
  {
    kind: 'number',
    id: 'block',
    section: 'workload',
    label: 'Request size',
    unit: 'bytes',
    explain: 'Bytes per request; empty uses the workload’s own size.',
    whole: true,
    min: 1,
    max: 1 << 30,
    optional: true,
    to: { field: 'block_bytes' },
  },
  {
    kind: 'number',
    id: 'align',
    section: 'workload',
    label: 'Request alignment',
    unit: 'bytes',
    explain:
      'Random requests start at multiples of this; empty aligns them to their own size. Below 4096, ' +
      'writes straddle the 4 KB map units and each partly covered unit costs a read-modify-write.',
    whole: true,
    min: 1,
    max: 1 << 30,
    optional: true,
    requires: { field: 'align_bytes' },
    to: { field: 'align_bytes' },
  },
  {
    kind: 'number',
    id: 'trim',
    section: 'workload',
    label: 'TRIM after the fill',
    explain:
      'Fraction of the filled span TRIMmed before the test (the S3500 review’s format-and-delete spare area); ' +
      'it works like testing less of the span.',
    whole: false,
    min: 0,
    max: 0.99,
    to: { field: 'trim_fraction' },
  },
  {
    kind: 'choice',
    id: 'mix',
    section: 'workload',
    label: 'Reads and writes',
    requires: { field: 'read_percent' },
    choices: [
      { value: 'workload', label: 'Workload’s own', explain: 'The mix of the workload chosen above.' },
      { value: 'writes', label: 'Writes', explain: 'Every command writes.', request: { read_percent: 0 } },
      { value: 'reads', label: 'Reads', explain: 'Every command reads (from the filled data).', request: { read_percent: 100 } },
      {
        value: 'mixed',
        label: 'Mixed',
        explain: 'A share of the commands read, the rest write: reads wait behind programs and erases on the same die.',
      },
    ],
  },
  {
    kind: 'number',
    id: 'read_pct',
    section: 'workload',
    label: 'Reads',
    unit: '%',
    explain: 'Share of commands that read.',
    whole: true,
    min: 0,
    max: 100,
    shownWhen: { option: 'mix', value: 'mixed' },
    initial: 70,
    to: { field: 'read_percent' },
  },
  {
    kind: 'choice',
    id: 'order',
    section: 'workload',
    label: 'Order',
    requires: { field: 'random_percent' },
    choices: [
      { value: 'workload', label: 'Workload’s own', explain: 'The order of the workload chosen above.' },
      { value: 'random', label: 'Random', explain: 'Each request lands anywhere in the tested span.', request: { random_percent: 100 } },
      {
        value: 'sequential',
        label: 'Sequential',
        explain: 'Each request follows the last: whole blocks go invalid together, so GC has almost nothing to copy.',
        request: { random_percent: 0 },
      },
      { value: 'partly', label: 'Partly random', explain: 'A share of the requests jump to a random place; the rest follow on.' },
    ],
  },
  {
    kind: 'number',
    id: 'random_pct',
    section: 'workload',
    label: 'Random',
    unit: '%',
    explain: 'Share of requests at a random place (fio’s percentage_random).',
    whole: true,
    min: 0,
    max: 100,
    shownWhen: { option: 'order', value: 'partly' },
    initial: 50,
    to: { field: 'random_percent' },
  },
  {
    kind: 'text',
    id: 'bssplit',
    section: 'workload',
    label: 'Size mix (bssplit)',
    explain: 'Several request sizes with their shares, as fio’s bssplit: SIZE/PERCENT separated by colons. Empty: one size.',
    placeholder: '4k/50:64k/50',
    requires: { field: 'block_sizes' },
    to: { field: 'block_sizes' },
  },
  {
    kind: 'number',
    id: 'threads',
    section: 'workload',
    label: 'Threads',
    explain: 'Jobs running the workload together, each keeping the queue depth outstanding (fio’s numjobs).',
    whole: true,
    min: 1,
    max: 1024,
    requires: { field: 'threads' },
    to: { field: 'threads' },
  },
  {
    kind: 'choice',
    id: 'skew',
    section: 'workload',
    label: 'Where random requests land',
    requires: { field: 'distribution' },
    choices: [
      { value: 'uniform', label: 'Uniform', explain: 'Every place in the span equally often.' },
      {
        value: 'zipf',
        label: 'Zipf',
        explain: 'A few places far more often than the rest (hot data): GC finds emptier victims among the cold blocks.',
      },
      { value: 'pareto', label: 'Pareto', explain: 'An 80/20-style skew: a small share of the span takes most requests.' },
      { value: 'zoned', label: 'Zones', explain: 'Set shares of the requests to set shares of the span (fio’s zoned distribution).' },
    ],
  },
  {
    kind: 'number',
    id: 'zipf',
    section: 'workload',
    label: 'Zipf θ',
    explain: 'How skewed: above 0, at most 10, not 1; 1.2 is strongly skewed.',
    whole: false,
    min: 0.001,
    max: 10,
    shownWhen: { option: 'skew', value: 'zipf' },
    initial: 1.2,
    to: { field: 'distribution', template: 'zipf:{}' },
  },
  {
    kind: 'number',
    id: 'pareto',
    section: 'workload',
    label: 'Pareto h',
    explain: 'How skewed, between 0 and 1 (smaller is more skewed).',
    whole: false,
    min: 0.001,
    max: 0.999,
    shownWhen: { option: 'skew', value: 'pareto' },
    initial: 0.2,
    to: { field: 'distribution', template: 'pareto:{}' },
  },
  {
    kind: 'text',
    id: 'zones',
    section: 'workload',
    label: 'Zones',
    explain: 'ACCESS/SIZE percentages separated by colons: 90/10:10/90 sends 90 % of requests to 10 % of the span.',
    placeholder: '90/10:10/90',
    shownWhen: { option: 'skew', value: 'zoned' },
    initial: '90/10:10/90',
    to: { field: 'distribution', template: 'zoned:{}' },
  },
  {
    kind: 'number',
    id: 'rate',
    section: 'workload',
    label: 'Rate limit',
    unit: 'IO/s per thread',
    explain: 'Each thread issues at most this many commands a second; empty or 0: as fast as the drive answers.',
    whole: true,
    min: 0,
    max: 100_000_000,
    optional: true,
    requires: { field: 'rate_iops' },
    to: { field: 'rate_iops' },
  },
  {
    kind: 'choice',
    id: 'host',
    section: 'workload',
    label: 'Host',
    choices: [
      { value: 'steady', label: 'Never rests', explain: 'The host never pauses, as in the articles’ test.', request: { idle_s: 0 } },
      {
        value: 'bursty',
        label: 'Works in bursts',
        explain:
          'The host alternates work and idle time; while idle, the drive cleans in the background, so the next ' +
          'burst starts at fresh-drive speed until the refilled blocks are used up.',
      },
    ],
  },
  {
    kind: 'number',
    id: 'burst_s',
    section: 'workload',
    label: 'Work for',
    unit: 's',
    explain: 'Seconds of work in each burst.',
    whole: true,
    min: 1,
    max: 1_000_000,
    shownWhen: { option: 'host', value: 'bursty' },
    initial: 60,
    to: { field: 'burst_s' },
  },
  {
    kind: 'number',
    id: 'idle_s',
    section: 'workload',
    label: 'Rest for',
    unit: 's',
    explain: 'Seconds the host stays idle after each burst.',
    whole: true,
    min: 1,
    max: 1_000_000,
    shownWhen: { option: 'host', value: 'bursty' },
    initial: 30,
    to: { field: 'idle_s' },
  },
  {
    kind: 'choice',
    id: 'precondition',
    section: 'bed',
    label: 'Before the test',
    requires: { field: 'precondition' },
    choices: [
      {
        value: 'fill',
        label: 'Filled in order',
        explain:
          'Secure-erased, then the tested span written once in order, as the articles prepare a drive: the test starts ' +
          'with every spare block clean, so it shows the fall from fresh to steady state.',
        request: { precondition: 'fill' },
      },
      {
        value: 'none',
        label: 'Erased only',
        explain: 'Secure-erased and never written: reads return zeros without touching the NAND, and writes meet an empty drive.',
        request: { precondition: 'none' },
      },
      {
        value: 'random',
        label: 'Steady state',
        explain:
          'The fill, then random overwrites of the span applied at once (as vendors precondition for a datasheet): the ' +
          'test starts in steady state, with GC already working on every write.',
        request: { precondition: 'random' },
      },
    ],
  },
  {
    kind: 'number',
    id: 'precondition_passes',
    section: 'bed',
    label: 'Random overwrites',
    unit: '× the span',
    explain: 'How many times the span’s size is overwritten at random before the test (2 reaches steady state).',
    whole: false,
    min: 0.01,
    max: 20,
    shownWhen: { option: 'precondition', value: 'random' },
    initial: 2,
    requires: { field: 'precondition_passes' },
    to: { field: 'precondition_passes' },
  },
  {
    kind: 'choice',
    id: 'array',
    section: 'bed',
    label: 'Drives',
    requires: { field: 'raid' },
    choices: [
      { value: 'one', label: 'One drive', explain: 'The drive alone on its own link, as in the articles’ single-drive tests.' },
      {
        value: 'raid0',
        label: 'RAID 0 array',
        explain:
          'Copies of the drive striped together behind one host bus adapter, as Tom’s Hardware tested 24 S3700s: ' +
          'each member takes a share of every stream, and the shared link caps the whole.',
      },
    ],
  },
  {
    kind: 'number',
    id: 'raid_drives',
    section: 'bed',
    label: 'Members',
    explain: 'Drives in the array (2 to 64); the samples add up their work, and the inside view shows one member.',
    whole: true,
    min: 2,
    max: 64,
    shownWhen: { option: 'array', value: 'raid0' },
    initial: 4,
    to: { field: 'raid', key: 'drives' },
  },
  {
    kind: 'number',
    id: 'raid_stripe_kib',
    section: 'bed',
    label: 'Stripe chunk',
    unit: 'KiB',
    explain: 'Consecutive KiB on one member before the next (a power of two, 4 to 1024); empty: the article’s 64 KiB.',
    whole: true,
    min: 4,
    max: 1024,
    optional: true,
    shownWhen: { option: 'array', value: 'raid0' },
    to: { field: 'raid', key: 'stripe_kib' },
  },
  {
    kind: 'number',
    id: 'raid_hba_mb_s',
    section: 'bed',
    label: 'Shared link',
    unit: 'MB/s',
    explain: 'What the host adapters and backplane move for all members together (0: no limit); empty: the article’s 4,200 MB/s.',
    whole: true,
    min: 0,
    max: 1_000_000,
    optional: true,
    shownWhen: { option: 'array', value: 'raid0' },
    to: { field: 'raid', key: 'hba_mb_s' },
  },
  {
    kind: 'choice',
    id: 'pacing',
    section: 'design',
    label: 'GC pacing',
    requires: { param: 'gc.pacing' },
    choices: [
      {
        value: 'consistency-first',
        label: 'Consistency-first',
        explain:
          'Every host write earns the same slice of cleaning, so every second does the same work: the S3700’s ' +
          'flat line, with a heavier clean-up every ~150 s.',
        set: { 'gc.pacing': 'consistency-first' },
      },
      {
        value: 'lazy',
        label: 'Lazy',
        explain:
          'No cleaning until a die runs out of free blocks, then the host waits while it cleans in bulk: the ' +
          'Micron P400e’s wall of seconds with next to no IO.',
        set: { 'gc.pacing': 'lazy' },
      },
    ],
  },
  {
    kind: 'choice',
    id: 'victim',
    section: 'design',
    label: 'GC victim block',
    requires: { param: 'gc.victim' },
    choices: [
      {
        value: 'greedy',
        label: 'Greedy',
        explain: 'Cleans the block with the fewest valid pages: the least copying now.',
        set: { 'gc.victim': 'greedy' },
      },
      {
        value: 'cost-benefit',
        label: 'Cost-benefit',
        explain:
          'Weighs free space against age (the LFS cleaner), giving hot blocks time to empty: lower write ' +
          'amplification when some data is rewritten far more often (try the hot-cold workload).',
        set: { 'gc.victim': 'cost-benefit' },
      },
      {
        value: 'fifo',
        label: 'FIFO',
        explain: 'Cleans the block closed longest ago, whatever it holds: the worst case, for comparison.',
        set: { 'gc.victim': 'fifo' },
      },
      {
        value: 'd-choices',
        label: 'd-choices',
        explain:
          'Draws d blocks at random and cleans the emptiest of them: d = 1 is random cleaning, and as d grows it ' +
          'approaches greedy at a fraction of the bookkeeping (Van Houdt’s mean-field model predicts its write ' +
          'amplification).',
        set: { 'gc.victim': 'd-choices' },
      },
    ],
  },
  {
    kind: 'number',
    id: 'victim_d',
    section: 'design',
    label: 'Blocks drawn (d)',
    explain: 'How many random blocks d-choices compares for each victim: 1 is random, 10 is close to greedy.',
    whole: true,
    min: 1,
    max: 1024,
    shownWhen: { option: 'victim', value: 'd-choices' },
    initial: 10,
    to: { param: 'gc.victim_choices' },
    requires: { param: 'gc.victim_choices' },
  },
  {
    kind: 'choice',
    id: 'map',
    section: 'design',
    label: 'Mapping table',
    requires: { param: 'map.scheme' },
    choices: [
      {
        value: 'flat',
        label: 'Flat',
        explain: 'One DRAM entry per 4 KB, so every lookup is free: the S3700’s direct-mapped table (about 1 MB of DRAM ' + 'per GB).',
        set: { 'map.scheme': 'flat' },
      },
      {
        value: 'tree',
        label: 'B-tree',
        explain:
          'A compact tree whose dirty leaves are rewritten in bursts that stall every command: the Intel 710’s ' +
          'scattered dips, even before the NAND needs cleaning.',
        set: { 'map.scheme': 'tree' },
      },
      {
        value: 'cached',
        label: 'Cached',
        explain:
          'Only part of the table fits in DRAM; a miss reads its map page from NAND first (DFTL, drives with ' +
          'little DRAM). Watch the hit rate.',
        set: { 'map.scheme': 'cached' },
      },
    ],
  },
  {
    kind: 'number',
    id: 'map_cache_mib',
    section: 'design',
    label: 'DRAM for the map',
    unit: 'MiB',
    explain: 'DRAM holding map pages; the whole table needs about 1 MB per GB of capacity (195 MB for 200 GB).',
    whole: false,
    min: 0.01,
    max: 65_536,
    shownWhen: { option: 'map', value: 'cached' },
    initial: 16,
    to: { param: 'map.cache_bytes', scale: 2 ** 20 },
  },
  {
    kind: 'choice',
    id: 'cell',
    section: 'design',
    label: 'NAND cells',
    requires: { param: 'nand.cell' },
    choices: [
      {
        value: 'slc',
        label: 'SLC',
        explain:
          'Single-level cells store one bit each: the fastest to write and the longest-lived (about 100,000 erases per block), ' +
          'but the most expensive per gigabyte (the X25-E).',
        set: { 'nand.cell': 'slc' },
      },
      {
        value: 'mlc',
        label: 'MLC',
        explain:
          'Multi-level cells store two bits each, as in consumer drives: cheaper per gigabyte, slower to write than SLC, ' +
          'and worn out after about 3,000 erases per block.',
        set: { 'nand.cell': 'mlc' },
      },
      {
        value: 'het-mlc',
        label: 'HET-MLC',
        explain:
          'High-endurance MLC (Intel’s “HET”, in the S3700): two bits per cell like MLC, but written more slowly and gently ' +
          'so each block survives about ten times as many erases (about 30,000).',
        set: { 'nand.cell': 'het-mlc' },
      },
      {
        value: 'tlc',
        label: 'TLC',
        explain:
          'Triple-level cells store three bits each: the cheapest per gigabyte, the slowest to write, and about 1,000 erases per block.',
        set: { 'nand.cell': 'tlc' },
      },
    ],
  },
  {
    kind: 'choice',
    id: 'compress',
    section: 'design',
    label: 'Compression',
    requires: { param: 'controller.compression' },
    choices: [
      {
        value: 'off',
        label: 'Off',
        explain: 'Data is written as it comes, as in the articles (their test data is incompressible).',
        set: { 'controller.compression': false },
      },
      {
        value: 'on',
        label: 'On',
        explain:
          'The controller compresses data before writing it (SandForce, in the Intel 330 and 520): compressible data means fewer NAND writes and less cleaning.',
        set: { 'controller.compression': true },
      },
    ],
  },
  {
    kind: 'number',
    id: 'compressibility',
    section: 'workload',
    label: 'Data shrinks by',
    explain: 'How compressible the host’s data is: 0 is incompressible (the articles), 0.9 shrinks it by 90 %.',
    whole: false,
    min: 0,
    max: 0.9,
    shownWhen: { option: 'compress', value: 'on' },
    initial: 0.5,
    requires: { field: 'compressibility' },
    to: { field: 'compressibility' },
  },
  {
    kind: 'choice',
    id: 'plp',
    section: 'power',
    label: 'Power-loss protection',
    requires: { param: 'power.capacitors' },
    choices: [
      {
        value: 'capacitors',
        label: 'Capacitors',
        explain:
          'Capacitors hold the energy to flush the write buffer when power fails, so writes are acknowledged from ' +
          'the buffer safely: the S3700’s two 47 µF capacitors.',
        set: { 'power.capacitors': true, 'power.capacitor_fails_at_s': 0 },
      },
      {
        value: 'failing',
        label: 'Capacitors fail',
        explain:
          'The capacitor bank fails at a chosen second; the next self-test (every 600 s) finds it, stops buffering ' +
          'writes and raises the SMART flag, as the S3700 review describes. A cut in between loses data.',
        set: { 'power.capacitors': true },
      },
      {
        value: 'volatile',
        label: 'None, volatile cache',
        explain:
          'No capacitors, but writes are acknowledged from the buffer anyway (a consumer drive): fast, and a power ' +
          'cut loses what was in the buffer.',
        set: { 'power.capacitors': false, 'power.volatile_cache': true },
      },
      {
        value: 'write-through',
        label: 'None, write-through',
        explain:
          'No capacitors, so a write is acknowledged only once it is programmed: nothing is lost, but every write ' + 'waits for the NAND.',
        set: { 'power.capacitors': false, 'power.volatile_cache': false },
      },
    ],
  },
  {
    kind: 'number',
    id: 'plp_fail_s',
    section: 'power',
    label: 'Capacitors fail at',
    unit: 's',
    explain: 'Simulated second at which the capacitor bank fails.',
    whole: true,
    min: 1,
    max: 1_000_000,
    shownWhen: { option: 'plp', value: 'failing' },
    initial: 300,
    to: { param: 'power.capacitor_fails_at_s' },
  },
  {
    kind: 'list',
    id: 'cuts',
    section: 'power',
    label: 'Cut power at',
    unit: 's',
    explain:
      'Seconds at which power is cut; the readout compares the writes the host was told were done with what ' +
      'survived, and how long the map takes to rebuild.',
    min: 0,
    to: { field: 'power_cuts_s' },
  },
];

/**
 * Run-request fields a fio job file or a trace sets itself (the engine refuses them beside one):
 * the options that set them are put aside while such a file gives the workload.
 */
export const FILE_SETS: Readonly<Record<'fio' | 'trace', readonly string[]>> = {
  fio: [
    'queue_depth',
    'block_bytes',
    'align_bytes',
    'threads',
    'read_percent',
    'random_percent',
    'block_sizes',
    'distribution',
    'rate_iops',
    'thinktime_us',
  ],
  trace: ['threads', 'read_percent', 'random_percent', 'block_sizes', 'distribution', 'rate_iops', 'thinktime_us'],
};

/** Whether a workload file sets what this option sets. */
export function setByFile(option: DesignOption, kind: 'fio' | 'trace' | undefined): boolean {
  const needs = option.requires && 'field' in option.requires ? [option.requires.field] : [];
  return kind !== undefined && [...targets(option), ...needs].some((f) => FILE_SETS[kind].includes(f));
}

export function optionById(id: string): DesignOption | undefined {
  return DESIGN_OPTIONS.find((o) => o.id === id);
}

/** What the engine offers: the chosen drive's parameters and the run-request fields. */
export interface EngineOffer {
  /** Path -> value of the drive as it ships. */
  parameters: Readonly<Record<string, unknown>>;
  /** Run-request field -> default. */
  requestFields: Readonly<Record<string, unknown>>;
  /** The workload is a model of an application trace: it sets its own sizes, mix and depths. */
  model?: boolean;
}

/** Run-request fields a trace model sets itself (the engine refuses them with a model). */
export const MODEL_SETS: readonly string[] = [
  'queue_depth',
  'block_bytes',
  'align_bytes',
  'threads',
  'read_percent',
  'random_percent',
  'block_sizes',
  'distribution',
  'rate_iops',
  'thinktime_us',
];

function knows(offer: EngineOffer, r: Requirement | NumberTarget | { field: string }): boolean {
  return 'param' in r ? r.param in offer.parameters : r.field in offer.requestFields;
}

/** Whether this engine knows what the option sets (it is offered only then). */
export function isAvailable(option: DesignOption, offer: EngineOffer): boolean {
  if (option.requires && !knows(offer, option.requires)) return false;
  if (option.kind !== 'choice') return knows(offer, option.to);
  return option.choices.every(
    (c) =>
      Object.keys(c.set ?? {}).every((p) => p in offer.parameters) && Object.keys(c.request ?? {}).every((f) => f in offer.requestFields),
  );
}

/** The choice the drive ships with: the first whose settings all match the preset. */
export function shippedChoice(option: ChoiceOption, offer: EngineOffer): Choice {
  const matches = (c: Choice) =>
    Object.entries(c.set ?? {}).every(([p, v]) => offer.parameters[p] === v) &&
    Object.entries(c.request ?? {}).every(([f, v]) => offer.requestFields[f] === v);
  return option.choices.find(matches) ?? option.choices[0];
}

/** The value a number option has when the user has not set it (null: the engine's default). */
export function shippedNumber(option: NumberOption, offer: EngineOffer): number | null {
  if (option.initial !== undefined) return option.initial;
  const raw = 'param' in option.to ? offer.parameters[option.to.param] : offer.requestFields[option.to.field];
  if (typeof raw !== 'number') return null;
  return 'param' in option.to && option.to.scale ? raw / option.to.scale : raw;
}

/** Whether an option is on screen and in effect given the other values. */
export function isActive(option: DesignOption, values: DesignValues, offer: EngineOffer): boolean {
  if (!isAvailable(option, offer)) return false;
  // A trace model's own shape stays: the options that would change it wait (kept, not applied).
  if (offer.model && targets(option).some((t) => MODEL_SETS.includes(t))) return false;
  const when = option.kind === 'number' || option.kind === 'text' ? option.shownWhen : undefined;
  if (!when) return true;
  const parent = optionById(when.option);
  return parent?.kind === 'choice' && isAvailable(parent, offer) && choiceValue(parent, values, offer) === when.value;
}

/** The effective choice of a choice option: the user's, else the drive's own. */
export function choiceValue(option: ChoiceOption, values: DesignValues, offer: EngineOffer): string {
  const v = values[option.id];
  return typeof v === 'string' && option.choices.some((c) => c.value === v) ? v : shippedChoice(option, offer).value;
}

export interface RequestPatch {
  set: Record<string, ParamValue>;
  fields: Record<string, ParamValue | number[] | Record<string, number>>;
}

/**
 * The request patch of every active option the user changed, plus number options that only
 * exist under a choice (their initial value applies as soon as the choice is made).
 */
export function designPatch(values: DesignValues, offer: EngineOffer): RequestPatch {
  const patch: RequestPatch = { set: {}, fields: {} };
  for (const option of DESIGN_OPTIONS) {
    if (!isActive(option, values, offer)) continue;
    const v = values[option.id];
    if (option.kind === 'choice') {
      if (v === undefined) continue;
      const choice = option.choices.find((c) => c.value === choiceValue(option, values, offer))!;
      Object.assign(patch.set, choice.set);
      Object.assign(patch.fields, choice.request);
    } else if (option.kind === 'number' || option.kind === 'text') {
      const own = typeof v === (option.kind === 'number' ? 'number' : 'string') ? (v as number | string) : undefined;
      const x = own ?? (option.shownWhen ? option.initial : undefined);
      if (x === undefined) continue;
      const to = option.to;
      if ('param' in to) patch.set[to.param] = to.scale ? Math.round((x as number) * to.scale) : x;
      else if ('key' in to) patch.fields[to.field] = { ...(patch.fields[to.field] as Record<string, number>), [to.key]: x as number };
      else patch.fields[to.field] = 'template' in to && to.template ? to.template.replace('{}', String(x)) : x;
    } else if (Array.isArray(v) && v.length > 0) {
      patch.fields[option.to.field] = [...v];
    }
  }
  return patch;
}

/** The engine settings an option writes (for matching an engine error to the option). */
export function targets(option: DesignOption): string[] {
  if (option.kind === 'choice') return option.choices.flatMap((c) => [...Object.keys(c.set ?? {}), ...Object.keys(c.request ?? {})]);
  const to = option.to;
  return ['param' in to ? to.param : 'key' in to ? `${to.field}.${to.key}` : to.field];
}

/**
 * The option whose control should show an engine error about `field` (a parameter path or a
 * run-request field), preferring one that is on screen, and a number (which sets just that
 * field) over a choice (which sets it among others).
 */
export function optionForField(field: string, values: DesignValues, offer: EngineOffer): DesignOption | undefined {
  const candidates = DESIGN_OPTIONS.filter((o) => targets(o).includes(field)).sort(
    (a, b) => Number(a.kind === 'choice') - Number(b.kind === 'choice'),
  );
  return candidates.find((o) => isActive(o, values, offer)) ?? candidates.find((o) => isAvailable(o, offer));
}

/** Short description of the changed options, for the results heading: "Pacing: Lazy". */
export function describeDesign(values: DesignValues, offer: EngineOffer): string[] {
  const out: string[] = [];
  for (const option of DESIGN_OPTIONS) {
    const v = values[option.id];
    if (v === undefined || !isActive(option, values, offer)) continue;
    if (option.kind === 'choice') {
      const c = option.choices.find((x) => x.value === v);
      if (c) out.push(`${option.label}: ${c.label}`);
    } else if (option.kind === 'number' || option.kind === 'text') {
      out.push(`${option.label} ${v}${option.kind === 'number' && option.unit ? ` ${option.unit}` : ''}`);
    } else if (Array.isArray(v) && v.length > 0) {
      out.push(`${option.label} ${v.join(', ')} ${option.unit ?? ''}`.trim());
    }
  }
  return out;
}

/** Drops values of options this engine does not offer, with a sentence for each. */
export function dropUnavailable(values: DesignValues, offer: EngineOffer): { values: DesignValues; errors: string[] } {
  const kept: Record<string, DesignValue> = {};
  const errors: string[] = [];
  for (const [id, v] of Object.entries(values)) {
    const option = optionById(id);
    if (option && isAvailable(option, offer)) kept[id] = v;
    else errors.push(`${id}: this engine has no such option (a newer version may)`);
  }
  return { values: kept, errors };
}
