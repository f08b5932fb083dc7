import { expect, test, type Page } from '@playwright/test';
import { SMALL_S3700, chartPoints, lowestIops, openApp, readNumber, runToEnd } from './helpers';

// Variants switched in the page, run by the real engine on a small drive of the S3700's
// architecture (see SMALL_S3700), with the numbers each one is known for.

/** Clicks a choice shown as a row of buttons (the radio itself is styled away). */
async function choose(page: Page, option: string, value: string): Promise<void> {
  await page.locator('label', { has: page.getByTestId(`${option}-${value}`) }).click();
  await expect(page.getByTestId(`${option}-${value}`)).toBeChecked();
}

test('lazy GC pacing leaves seconds far below the consistency-first minimum', async ({ page }) => {
  await openApp(page, `?seconds=120&view=steady-log&${SMALL_S3700}`);
  await expect(page.getByTestId('pacing-consistency-first')).toBeChecked();
  await runToEnd(page);
  // From 84 s (70% of the run): ~25K at the lowest, the S3700's flat line.
  const paced = await lowestIops(page);

  await choose(page, 'pacing', 'lazy');
  await expect(page.getByTestId('option-pacing')).toContainText('P400e');
  await runToEnd(page);
  const lazy = await lowestIops(page);
  expect(page.url()).toContain('pacing=lazy');
  await expect(page.getByTestId('run-1')).toContainText('GC pacing: Lazy');

  expect(paced).toBeGreaterThan(15_000);
  expect(lazy).toBeLessThan(paced / 10);
  // The garbage-collection panel comes up for this variant and shows the bulk clean-ups.
  await expect(page.getByTestId('panel-gc')).toBeVisible();
  await expect.poll(() => chartPoints(page, 'chart-gc')).toBeGreaterThan(0);
});

test('a power cut loses nothing with capacitors, and the buffer without them', async ({ page }) => {
  await openApp(page, `?seconds=40&cuts=25&${SMALL_S3700}`);
  await expect(page.getByTestId('cuts-input')).toHaveValue('25');
  await runToEnd(page);
  await expect(page.getByTestId('readout-lost')).toContainText('1 of 1 cut');
  expect(await readNumber(page, 'readout-lost')).toBe(0);
  await expect(page.getByTestId('cut-lost')).toHaveText('0');
  await expect(page.getByTestId('iops-chart')).toHaveAttribute('data-markers', '1');

  await page.getByTestId('plp-select').selectOption('volatile');
  await expect(page.getByTestId('option-plp')).toContainText('consumer drive');
  await runToEnd(page);
  // The whole 1 MiB buffer (256 4 KiB writes) was acknowledged and not yet on NAND.
  expect(await readNumber(page, 'readout-lost')).toBeGreaterThan(0);
  await expect(page.getByTestId('readout-lost')).toContainText('map rebuilt in');
  await expect(page.getByTestId('panel-buffer')).toBeVisible();
  expect(page.url()).toContain('plp=volatile');
});

test('every parameter by drive part: unit, range, reset; a bad value is named there and the results kept', async ({ page }) => {
  await openApp(page, `?seconds=30&${SMALL_S3700}`);
  await runToEnd(page);
  await expect.poll(() => chartPoints(page)).toBe(30);

  // Open already: the link sets parameters. Grouped by drive part, each with its unit and the engine's range.
  for (const group of ['host', 'buffer', 'map', 'gc', 'wear', 'nand']) await expect(page.getByTestId(`params-${group}`)).toBeVisible();
  const paced = page.getByTestId('field-param-gc.paced_percent');
  await expect(page.getByTestId('params-gc')).toContainText('gc.paced_percent');
  await expect(paced).toContainText('(%, range 10 – 1,000)');
  await expect(page.getByTestId('field-param-timing.program_ns')).toContainText('(ns, range');
  await expect(page.getByTestId('param-gc.paced_percent-input')).toHaveValue('96');
  // The link's overrides are shown as changed, with a way back to the drive's own value.
  await expect(page.getByTestId('param-geometry.blocks_per_plane-input')).toHaveValue('128');
  await expect(page.getByTestId('param-geometry.blocks_per_plane-reset')).toHaveText('Reset to the drive’s 2048');

  // Out of range: named at the field with the range, not applied; Start waits; results stay.
  const input = page.getByTestId('param-gc.paced_percent-input');
  await input.fill('5');
  const message = 'gc.paced_percent: must be between 10 and 1000 (got 5)';
  await expect(page.getByTestId('param-gc.paced_percent-error')).toHaveText(message);
  await expect(page.getByTestId('start')).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toContainText(message);
  expect(page.url()).not.toContain('paced_percent');
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'finished');
  await expect.poll(() => chartPoints(page)).toBe(30);
  await expect(page.getByTestId('readout-time')).toHaveText('30 s of 30');

  // In range but at odds with another parameter: the engine's words, at the parameter it names.
  await input.fill('80');
  await expect.poll(() => page.url()).toContain('set.gc.paced_percent=80');
  await page.getByTestId('param-gc.boost_below_free_blocks-input').fill('7');
  await expect(page.getByTestId('param-gc.boost_below_free_blocks-error')).toContainText('Drive parameters, gc.boost_below_free_blocks:');
  await page.getByTestId('param-gc.boost_below_free_blocks-input').fill('3');
  await expect(page.getByTestId('param-gc.boost_below_free_blocks-error')).toHaveCount(0);
  // A name from the engine's list, and back to the drive's own.
  await page.getByTestId('param-gc.pacing-input').selectOption('lazy');
  await expect.poll(() => page.url()).toContain('set.gc.pacing=lazy');
  await page.getByTestId('param-gc.pacing-reset').click();
  expect(page.url()).not.toContain('gc.pacing');
  expect(page.url()).toContain('seconds=30');
  await expect(page.getByTestId('start')).toBeEnabled();
});

test('settings from a link: bad values are named, the rest kept; options follow the engine', async ({ page }) => {
  await openApp(page, '?seconds=30&pacing=eager&qd=0&victim=fifo&workload=random-read&set.gc.victim=greedy');
  const alert = page.getByTestId('url-errors');
  await expect(alert).toContainText('pacing: must be one of consistency-first, lazy (got "eager")');
  await expect(alert).toContainText('qd: must be a whole number from 1 to 65,536 (got "0")');
  await expect(page.getByTestId('victim-select')).toHaveValue('fifo');
  await expect(page.getByTestId('seconds-input')).toHaveValue('30');
  await expect(page.getByTestId('param-gc.victim-input')).toHaveValue('greedy');

  // The workload list and its descriptions come from the engine.
  const workloads = page.getByTestId('workload-select');
  await expect(workloads).toHaveValue('random-read');
  expect(await workloads.locator('option').count()).toBeGreaterThanOrEqual(7);
  await expect(workloads.locator('option:checked')).toHaveText('Random reads');
  await expect(page.getByTestId('section-workload')).toContainText('Reads from random places in the filled data');
  await expect(page.getByTestId('block-input')).toHaveAttribute('placeholder', '4096 (the workload’s)');

  // Compression is offered exactly when the engine's drive has the parameter.
  expect(await page.getByTestId('parameters').locator('.param').count()).toBeGreaterThan(40);
  const listed = await page.getByTestId('param-controller.compression').count();
  expect(await page.getByTestId('option-compress').count()).toBe(listed);
});

test('the engine’s objection to a setting appears next to it before Start', async ({ page }) => {
  await openApp(page, '?seconds=30&cuts=50');
  // The power-loss section opens to show it.
  await expect(page.getByTestId('option-cuts')).toContainText(
    'Cut power at: each cut must fall inside the run, between 0 and 30 s (got 50 s)',
  );
  await page.getByTestId('cuts-input').fill('20');
  await expect(page.getByTestId('option-cuts').getByRole('alert')).toHaveCount(0);
});

test('a compressing controller writes less NAND when the data compresses', async ({ page }) => {
  await openApp(page, `?seconds=40&compress=on&compressibility=0&${SMALL_S3700}`);
  await expect(page.getByTestId('option-compress')).toContainText('SandForce');
  await runToEnd(page);
  // Incompressible data, as in the articles: no help (write amplification near 2 once GC runs).
  const plain = await readNumber(page, 'readout-wa');

  await page.getByTestId('compressibility-input').fill('0.5');
  await runToEnd(page);
  const half = await readNumber(page, 'readout-wa');
  // 0.5 is the option's initial value, so the link no longer needs to say it.
  expect(page.url()).not.toContain('compressibility=');
  expect(plain).toBeGreaterThan(1.3);
  expect(half).toBeLessThan(plain / 2);
});

test('d-choices is offered as a GC victim with its d, and d = 1 (random) copies more than greedy', async ({ page }) => {
  await openApp(page, `?seconds=60&${SMALL_S3700}`);
  await runToEnd(page);
  const greedyWa = await readNumber(page, 'readout-wa');

  await page.getByTestId('victim-select').selectOption('d-choices');
  await expect(page.getByTestId('option-victim')).toContainText('Van Houdt');
  await expect(page.getByTestId('victim_d-input')).toHaveValue('10');
  await page.getByTestId('victim_d-input').fill('1');
  await runToEnd(page);
  expect(page.url()).toContain('victim=d-choices');
  expect(page.url()).toContain('victim_d=1');
  // Native: WA since the start 1.75 greedy, 2.00 random, at 60 s on this drive.
  expect(await readNumber(page, 'readout-wa')).toBeGreaterThan(greedyWa * 1.08);
});

test('the test bed: a start in steady state, then a RAID 0 array of the drive, with the engine’s objections at each control', async ({
  page,
}) => {
  // Filled in order (the articles' method): the first seconds (before the wall at ~8 s) write at fresh-drive speed.
  await openApp(page, `?seconds=6&${SMALL_S3700}`);
  await runToEnd(page);
  const filledWa = await readNumber(page, 'readout-wa');

  // Steady state from the start: GC copies on every write from the first second.
  await page.getByTestId('section-bed').locator('summary').click();
  await page.getByTestId('precondition-select').selectOption('random');
  await expect(page.getByTestId('option-precondition')).toContainText('datasheet');
  await expect(page.getByTestId('precondition_passes-input')).toHaveValue('2');
  await runToEnd(page);
  const steadyWa = await readNumber(page, 'readout-wa');
  const single = await readNumber(page, 'readout-iops');
  expect(page.url()).toContain('precondition=random');
  expect(filledWa).toBeLessThan(1.3);
  expect(steadyWa).toBeGreaterThan(1.5);

  // Two of the drive striped: each takes half of every stream, so the array writes about twice as fast.
  await choose(page, 'array', 'raid0');
  await page.getByTestId('raid_drives-input').fill('2');
  await runToEnd(page);
  const array = await readNumber(page, 'readout-iops');
  expect(page.url()).toContain('array=raid0');
  expect(page.url()).toContain('raid_drives=2');
  expect(array).toBeGreaterThan(1.6 * single);
  // Inside the drive: each member's dies, one member at a time.
  await page.getByTestId('section-inside').locator('summary').click();
  await expect(page.getByTestId('inside-member').locator('option')).toHaveText(['1 of 2', '2 of 2']);
  await expect(page.getByTestId('inside-view')).toHaveAttribute('data-member', '0');
  await page.getByTestId('inside-member').selectOption('1');
  await expect(page.getByTestId('inside-view')).toHaveAttribute('data-member', '1');
  expect(Number((await page.getByTestId('die-summary').textContent())!.match(/host program ([\d.]+)%/)![1])).toBeGreaterThan(10);

  // A stripe the engine refuses is named at its control; the results stay.
  await page.getByTestId('raid_stripe_kib-input').fill('48');
  await expect(page.getByTestId('option-raid_stripe_kib')).toContainText('Stripe chunk: must be a power of two from 4 to 1024 (got 48)');
  await expect(page.getByTestId('start')).toBeDisabled();
  expect(await readNumber(page, 'readout-iops')).toBe(array);
  await page.getByTestId('raid_stripe_kib-input').fill('');
  await expect(page.getByTestId('start')).toBeEnabled();
});
