// The drive design's options (section 'design'): how the controller writes, cleans, maps and
// stores, plus the data's compressibility, shown with the workload but asked only of a drive
// that compresses. Entries of the page's option table (options.ts).

import type { DesignOption } from './options';

export const DRIVE_DESIGN_OPTIONS: readonly DesignOption[] = [
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
      {
        value: 'qlc',
        label: 'QLC',
        explain:
          'Quad-level cells store four bits each (the 870 QVO): cheaper still, the slowest to program, and a few hundred erases ' +
          'per block; an SLC cache hides the slowness until it is full.',
        set: { 'nand.cell': 'qlc' },
      },
    ],
  },
  {
    kind: 'choice',
    id: 'cooling',
    section: 'design',
    label: 'Cooling',
    requires: { param: 'thermal.cooling' },
    choices: [
      {
        value: 'bare',
        label: 'Bare, in a case',
        explain:
          'The drive in an M.2 slot with only the case’s airflow (TechPowerUp’s uncooled test): it heats up under sustained writes and throttles.',
        set: { 'thermal.cooling': 'bare' },
      },
      {
        value: 'spreader',
        label: 'Heat spreader',
        explain: 'A thin metal label or spreader: a little more surface to shed heat.',
        set: { 'thermal.cooling': 'spreader' },
      },
      {
        value: 'heatsink',
        label: 'Heatsink',
        explain: 'A finned heatsink (a motherboard’s M.2 cover): it takes much longer to reach the throttle point.',
        set: { 'thermal.cooling': 'heatsink' },
      },
      {
        value: 'fan',
        label: 'Fan on it',
        explain: 'A fan blowing on the drive (TechPowerUp’s second test): it never reaches the throttle point.',
        set: { 'thermal.cooling': 'fan' },
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
];
