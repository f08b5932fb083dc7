import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { NATIVE_CLI, SMALL_P3700, SMALL_S3700, focusVisible, openApp, tabTo, untilExperimentFinished, untilText } from './helpers';

// The articles' methods as experiments in the page, with the real engine in workers: a tiny
// four-corners sweep streams its rows and its CSV equals `ssdlab sweep`'s for the same request;
// settings are checked at the control and kept in the link; two drives on one chart; spare
// area and endurance; pause and stop.

const SMALL_S3700_ARGS = [
  'geometry.blocks_per_plane=128',
  'user_bytes=12500000768',
  'gc.start_free_blocks=6',
  'gc.boost_below_free_blocks=3',
  'gc.boost_until_free_blocks=5',
].flatMap((s) => ['--set', s]);

async function save(page: Page, testId: string, dir: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

async function runExperiment(page: Page): Promise<void> {
  await expect(page.getByTestId('exp-start')).toBeEnabled();
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
}

test('a tiny four-corners sweep streams its rows; its CSV equals ssdlab sweep’s; charts save as PNG and SVG', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'ssdlab-exp-'));
  await openApp(page, `?experiment=four-corners&exp_seconds=2&exp_ramp=1&exp_qd=1,4,32&exp_pre=fill&${SMALL_S3700}`);
  await expect(page.getByTestId('experiment-select')).toHaveValue('four-corners');
  await expect(page.getByTestId('experiment-about')).toContainText('P3700 review');
  await expect(page.getByTestId('exp-qd-input')).toHaveValue('1,4,32');
  await expect(page.getByTestId('field-seconds')).toHaveCount(0); // the live run's duration is not an experiment's

  await runExperiment(page);
  await expect(page.getByTestId('exp-progress-text')).toContainText('4 of 4 points, done');
  const table = page.getByTestId(/^exp-table-/);
  await expect(table.locator('tbody tr')).toHaveCount(12);
  // One line per corner on each chart, a point per queue depth.
  for (const id of ['exp-chart-bandwidth', 'exp-chart-latency-mean', 'exp-chart-latency-max']) {
    await expect(page.getByTestId(id).locator('g.series')).toHaveCount(4);
    await expect(page.getByTestId(id).locator('g.series').first().locator('circle')).toHaveCount(3);
  }
  await expect(page.getByTestId('exp-chart-bandwidth')).toContainText('32');

  const shown = (await page.getByTestId(/^exp-cli-/).textContent())!;
  const args = [
    'four-corners',
    '--drive',
    's3700-200',
    '--seconds',
    '2',
    '--ramp-seconds',
    '1',
    '--queue-depths',
    '1,4,32',
    '--precondition',
    'fill',
    ...SMALL_S3700_ARGS,
  ];
  expect(shown).toBe(`ssdlab sweep ${args.join(' ')}`);
  const csv = readFileSync(await save(page, (await page.getByTestId(/^exp-csv-/).getAttribute('data-testid'))!, dir), 'utf8');
  const cli = execFileSync('cargo', [...NATIVE_CLI, 'sweep', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  expect(csv.split('\n')).toHaveLength(14); // header, 12 rows, final newline
  expect(csv.split('\n')[0]).toBe('corner,queue_depth,iops,mb_s,latency_mean_us,latency_p99_us,latency_max_us,read_percent');
  expect(csv).toBe(cli);

  // IOPS instead of MB/s, kept in the link.
  await page.getByTestId('exp-plot-iops').click();
  await expect(page).toHaveURL(/exp_plot=iops/);
  const png = await save(page, 'exp-chart-bandwidth-png', dir);
  expect(readFileSync(png).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const svg = readFileSync(await save(page, 'exp-chart-latency-mean-svg', dir), 'utf8');
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain('Queue depth');
  expect(svg).toContain('<path d="M'); // the lines
});

test('bad experiment settings are named at the control and in the link; the rest is kept; a reload keeps the experiment', async ({
  page,
}) => {
  await openApp(page, `?experiment=four-corners&exp_qd=0,4&exp_seconds=abc&exp_pre=soon&exp_ramp=3&drive=p3700-400&seed=7`);
  const errors = page.getByTestId('url-errors');
  await expect(errors).toContainText('exp_qd: each must be a whole number from 1 to 65,536');
  await expect(errors).toContainText('exp_seconds: must be a whole number from 1 to 86,400');
  await expect(errors).toContainText('exp_pre: must be one of article, fill');
  // The good values stay: the experiment, its ramp, the drive and the seed.
  await expect(page.getByTestId('experiment-select')).toHaveValue('four-corners');
  await expect(page.getByTestId('exp-ramp-input')).toHaveValue('3');
  await expect(page.getByTestId('drive-select')).toHaveValue('p3700-400');
  await expect(page.getByTestId('seed-input')).toHaveValue('7');

  // Typed values out of range: the message names the control and its range, Start waits.
  await page.getByTestId('exp-seconds-input').fill('0');
  await expect(page.getByTestId('exp-seconds-error')).toHaveText('Seconds per point: must be a whole number from 1 to 86,400 (got 0)');
  await expect(page.getByTestId('exp-start')).toBeDisabled();
  await expect(page.getByTestId('exp-start-blocked')).toContainText('Seconds per point');
  await page.getByTestId('exp-seconds-input').fill('4');
  await page.getByTestId('exp-ramp-input').fill('4');
  await expect(page.getByTestId('exp-ramp-error')).toHaveText('Ramp: must be a whole number from 0 to 3 (got 4)');
  await page.getByTestId('exp-ramp-input').fill('1');
  await page.getByTestId('exp-qd-input').fill('1,2,99999');
  await expect(page.getByTestId('exp-qd-error')).toContainText('Queue depths: each must be a whole number from 1 to 65,536');
  await page.getByTestId('exp-qd-input').fill('1,8');
  await expect(page.getByTestId('exp-start')).toBeEnabled();
  await page.locator('label', { has: page.getByTestId('exp-pre-fill') }).click();
  await expect(page).toHaveURL(/experiment=four-corners/);
  await expect(page).toHaveURL(/exp_seconds=4/);
  await expect(page).toHaveURL(/exp_qd=1,8/);
  await expect(page).toHaveURL(/exp_pre=fill/);

  await page.reload();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  await expect(page.getByTestId('experiment-select')).toHaveValue('four-corners');
  await expect(page.getByTestId('exp-seconds-input')).toHaveValue('4');
  await expect(page.getByTestId('exp-ramp-input')).toHaveValue('1');
  await expect(page.getByTestId('exp-qd-input')).toHaveValue('1,8');
  await expect(page.getByTestId('exp-pre-fill')).toBeChecked();
  await expect(page.getByTestId('drive-select')).toHaveValue('p3700-400');

  // An unknown experiment is named; the page falls back to the live run with the other settings.
  await openApp(page, `?experiment=raid-0&drive=p3700-400`);
  await expect(page.getByTestId('url-errors')).toContainText(
    'experiment: unknown experiment "raid-0" (known: io-consistency, four-corners',
  );
  await expect(page.getByTestId('experiment-select')).toHaveValue('');
  await expect(page.getByTestId('drive-select')).toHaveValue('p3700-400');
  await expect(page.getByTestId('start')).toBeVisible();
});

test('two drives on one chart: S3700 and P3700 four corners, with a legend of corners and drives', async ({ page }) => {
  await openApp(
    page,
    `?experiment=four-corners&exp_seconds=2&exp_ramp=1&exp_qd=1,32&exp_pre=fill&${SMALL_S3700}&compare=${encodeURIComponent(SMALL_P3700)}`,
  );
  await expect(page.getByTestId('exp-start')).toHaveText('Run 2 experiments');
  await page.getByTestId('exp-start').click();
  await untilText(page, page.getByTestId('exp-run-1'), '4/4 points, done');
  await untilText(page, page.getByTestId('exp-run-2'), '4/4 points, done');
  const chart = page.getByTestId('exp-chart-bandwidth');
  await expect(chart.locator('g.series')).toHaveCount(8);
  const legend = page.locator('figure', { has: chart }).locator('.xy-legend li');
  await expect(legend).toHaveCount(6); // four corners, two drives
  await expect(legend.nth(4)).toContainText('S3700 200GB');
  await expect(legend.nth(5)).toContainText('P3700 400GB');
  await expect(page.getByTestId(/^exp-table-/)).toHaveCount(2);
  // The P3700's sequential read outruns the S3700's SATA link at QD32.
  const mbs = async (n: number) =>
    Number(
      (await page
        .getByTestId(/^exp-table-/)
        .nth(n)
        .locator('tbody tr')
        .nth(1)
        .locator('td')
        .nth(3)
        .textContent())!.replace(/,/g, ''),
    );
  expect(await mbs(1)).toBeGreaterThan(2 * (await mbs(0)));
  // Removing a drive removes its lines.
  await page.getByTestId('exp-remove-2').click();
  await expect(chart.locator('g.series')).toHaveCount(4);
  await expect(page).not.toHaveURL(/compare=/);
});

test('spare area and endurance: steady IOPS and WA against spare area, rated against NAND-limited PB', async ({ page }) => {
  await openApp(page, `?experiment=spare-area&exp_seconds=30&exp_spans=1,0.75&${SMALL_S3700}`);
  await expect(page.getByTestId('exp-spans-input')).toHaveValue('1,0.75');
  await page.getByTestId('exp-spans-input').fill('1,0.75,2');
  await expect(page.getByTestId('exp-spans-error')).toContainText('Spans: each must be a number from 0.01 to 1');
  await page.getByTestId('exp-spans-input').fill('1,0.75');
  await runExperiment(page);
  const rows = page.getByTestId(/^exp-table-/).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  const chart = page.getByTestId('exp-chart-steady-iops');
  await expect(chart).toContainText('200 GB');
  await expect(chart).toContainText('150 GB');
  const wa = async (i: number) => Number(await rows.nth(i).locator('td').nth(7).textContent());
  expect(await wa(1)).toBeLessThan(await wa(0)); // more spare area, less write amplification

  await page.getByTestId('experiment-select').selectOption('endurance');
  await expect(page).toHaveURL(/experiment=endurance/);
  await runExperiment(page);
  const bars = page.getByTestId('exp-chart-endurance').locator('rect:not(.frame)');
  await expect(bars).toHaveCount(4); // rated and NAND-limited, at two spans
  await expect(page.getByTestId('exp-chart-endurance')).toContainText('3.65'); // the S3700 200GB's rating, PB
});

test('pause, resume and stop an experiment; the rows so far stay', async ({ page }) => {
  await openApp(page, `?experiment=four-corners&exp_seconds=30&exp_ramp=1&exp_qd=1,2,4,8&exp_pre=fill&${SMALL_S3700}`);
  await page.getByTestId('exp-start').click();
  await untilText(page, page.getByTestId('exp-progress-text'), /Point [2-4] of 4/);
  await page.getByTestId('exp-pause').click();
  await expect(page.getByTestId('exp-progress')).toHaveAttribute('data-state', 'paused');
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'paused');
  const text = await page.getByTestId('exp-progress-text').textContent();
  await page.waitForTimeout(500);
  await expect(page.getByTestId('exp-progress-text')).toHaveText(text!);
  await page.getByTestId('exp-pause').click();
  await expect(page.getByTestId('exp-progress')).toHaveAttribute('data-state', 'running');
  await page.getByTestId('exp-stop').click();
  await expect(page.getByTestId('exp-progress')).toHaveAttribute('data-state', 'stopped');
  await expect(page.getByTestId('exp-progress-text')).toContainText('stopped');
  const rows = await page
    .getByTestId(/^exp-table-/)
    .locator('tbody tr')
    .count();
  expect(rows).toBeGreaterThanOrEqual(4);
  expect(rows).toBeLessThan(16);
  await page.getByTestId('exp-clear').click();
  await expect(page.getByTestId(/^exp-table-/)).toHaveCount(0);
});

test('a trace model hides the controls it sets and shows its description; the hidden values wait', async ({ page }) => {
  await openApp(page, `?qd=8&workload=swingbench`);
  await expect(page.getByTestId('workload-select')).toHaveValue('swingbench');
  await expect(page.getByTestId('workload-line')).toContainText('Model of the Oracle Swingbench OLTP trace');
  await expect(page.getByTestId('model-note')).toBeVisible();
  await expect(page.getByTestId('qd-input')).toHaveCount(0);
  await expect(page.getByTestId('option-mix')).toHaveCount(0);
  await expect(page.getByTestId('start')).toBeEnabled(); // the engine accepts the request: no queue depth in it
  await expect(page).toHaveURL(/qd=8/);
  await page.getByTestId('workload-select').selectOption('random-write');
  await expect(page.getByTestId('qd-input')).toHaveValue('8');
  await expect(page.getByTestId('model-note')).toHaveCount(0);
});

test('keyboard only: pick an experiment, set it, run it and save its table', async ({ page }) => {
  await openApp(page, `?exp_seconds=2&exp_ramp=1&exp_qd=1,4&exp_pre=fill&${SMALL_S3700}`);
  await tabTo(page, 'experiment-select');
  expect(await focusVisible(page)).toBe(true);
  // A closed select moves through its options with the arrow keys.
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('experiment-select')).toHaveValue('four-corners');
  await tabTo(page, 'exp-seconds-input');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await expect(page).toHaveURL(/exp_seconds=3/);
  await page.keyboard.press('Shift+Tab'); // back up, then forward to the run button
  await tabTo(page, 'exp-start');
  await page.keyboard.press('Enter');
  await untilExperimentFinished(page);
  await tabTo(page, 'exp-plot-iops');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/exp_plot=iops/);
  const csvButton = (await page.getByTestId(/^exp-csv-/).getAttribute('data-testid'))!;
  await tabTo(page, csvButton);
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/^four-corners-s3700-200.*\.csv$/);
});

test('IO consistency as an experiment: a dot per second on the scatter, a row per second in the table', async ({ page }) => {
  await openApp(page, `?experiment=io-consistency&exp_seconds=30&${SMALL_S3700}`);
  await expect(page.getByTestId('experiment-about')).toContainText('S3700 review');
  await expect(page.getByTestId('exp-ramp-input')).toHaveCount(0); // a per-second run has no ramp or queue depths to set
  await expect(page.getByTestId('exp-qd-input')).toHaveCount(0);
  await runExperiment(page);
  await expect(page.getByTestId('exp-chart-seconds')).toHaveAttribute('data-points', '30');
  await expect(page.getByTestId(/^exp-table-/).locator('tbody tr')).toHaveCount(30);
});
