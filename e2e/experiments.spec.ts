import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SMALL_P3700, SMALL_S3700, openApp } from './helpers';

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

async function runExperiment(page: Page, timeout = 60_000): Promise<void> {
  await expect(page.getByTestId('exp-start')).toBeEnabled();
  await page.getByTestId('exp-start').click();
  await expect(page.getByTestId('exp-progress')).toHaveAttribute('data-state', 'finished', { timeout });
}

test('a tiny four-corners sweep streams its rows; its CSV equals ssdlab sweep’s; charts save as PNG and SVG', async ({ page }) => {
  test.setTimeout(120_000);
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
  const cli = execFileSync('cargo', ['run', '--release', '-q', '-p', 'ssdlab-cli', '--', 'sweep', ...args], {
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
