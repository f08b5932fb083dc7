// The test bed's options (section 'bed'): how the drive is prepared before the run and whether
// it runs alone or in an array. Entries of the page's option table (options.ts).

import type { DesignOption } from './options';

export const TEST_BED_OPTIONS: readonly DesignOption[] = [
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
];
