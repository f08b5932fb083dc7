// The power options (section 'power'): the drive's power-loss protection and when power is cut.
// Entries of the page's option table (options.ts).

import type { DesignOption } from './options';

export const POWER_OPTIONS: readonly DesignOption[] = [
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
