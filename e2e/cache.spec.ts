import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { NATIVE_CLI, SMALL_980PRO, axeViolations, openApp, runToEnd, untilExperimentFinished } from './helpers';

// Today's drives in the page (issue 20): an SLC-cached drive's whole-drive fill drawn against GB
// written, its idle recovery, and a live run whose panels and explanations show the cache.

const SMALL_980PRO_ARGS = SMALL_980PRO.split('&')
  .slice(1)
  .flatMap((kv) => ['--set', kv.replace(/^set\./, '')]);

/** The CSV's rows as objects of numbers (strings where a cell is not one). */
function rowsOf(csv: string): Record<string, number | string>[] {
  const [head, ...lines] = csv.trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], Number.isNaN(Number(v)) ? v : Number(v)])));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('a whole-drive fill: speed and cache against GB written, the cache’s end from the run, the CSV equal to ssdlab sweep’s', async ({
  page,
}) => {
  await openApp(page, `?experiment=whole-drive-fill&${SMALL_980PRO}`);
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  const fill = page.getByTestId('exp-chart-fill');
  await expect(fill.locator('g.series')).toHaveCount(2); // host MB/s and folding
  await expect(page.getByTestId('exp-chart-cache').locator('g.series')).toHaveCount(2); // room left, waiting to fold

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(/^exp-csv-/).click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'ssdlab-fill-')), download.suggestedFilename());
  await download.saveAs(path);
  const csv = readFileSync(path, 'utf8');
  const cli = execFileSync('cargo', [...NATIVE_CLI, 'sweep', 'whole-drive-fill', '--drive', '980pro-1000', ...SMALL_980PRO_ARGS], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  expect(csv).toBe(cli);

  // The phases, from the engine's own rows: fast while the cache has room, then much slower.
  const rows = rowsOf(csv);
  const full = rows.findIndex((r) => (r.slc_free_gb as number) < 0.05);
  expect(full).toBeGreaterThan(0);
  const inCache = mean(rows.slice(0, full).map((r) => r.mb_s as number));
  const after = mean(rows.slice(full + 1).map((r) => r.mb_s as number));
  expect(inCache).toBeGreaterThan(2 * after);
  expect(rows.slice(full + 1).some((r) => (r.fold_mb_s as number) > 0)).toBe(true);
  // The chart marks where this run's cache filled, at the row the CSV says.
  const at = Math.round(rows[full].gb_written as number);
  await expect(fill.getByTestId('xy-guides')).toContainText(`cache full at ${at} GB`);
  expect(await axeViolations(page)).toEqual([]);
});

test('a whole-drive fill of a drive with no SLC cache says so, where a cached drive has its cache chart', async ({ page }) => {
  await openApp(page, '?experiment=whole-drive-fill&drive=s3700-200&set.user_bytes=20000000000');
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  await expect(page.getByTestId('exp-chart-fill').locator('g.series').first()).toBeVisible();
  await expect(page.getByTestId('exp-no-cache')).toContainText('This drive has no SLC cache');
  await expect(page.getByTestId('exp-chart-cache')).toHaveCount(0);
});

test('idle recovery: the longer the rest, the faster the write after it', async ({ page }) => {
  await openApp(page, `?experiment=idle-recovery&${SMALL_980PRO}`);
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  const bars = page.getByTestId('exp-chart-recovery').locator('rect:not(.frame)');
  const rows = page.getByTestId(/^exp-table-/).locator('tbody tr');
  const count = await rows.count();
  expect(count).toBeGreaterThanOrEqual(4);
  await expect(bars).toHaveCount(count); // a bar per row: before and after each rest
  const cell = async (i: number, col: number) => (await rows.nth(i).locator('td').nth(col).textContent())!.replace(/,/g, '');
  const after: [number, number][] = [];
  for (let i = 0; i < count; i++) if ((await cell(i, 1)) === 'after') after.push([Number(await cell(i, 0)), Number(await cell(i, 3))]);
  after.sort((a, b) => a[0] - b[0]);
  expect(after[0][0]).toBe(0);
  expect(after[after.length - 1][1]).toBeGreaterThan(1.5 * after[0][1]);
});

test('the recovery experiments take their rests, writes and states from the picker', async ({ page }) => {
  await openApp(page, `?experiment=dirty-recovery&exp_seconds=4&${SMALL_980PRO}`);
  await page.getByTestId('exp-rests-input').fill('0,x');
  await expect(page.getByTestId('exp-rests-error')).toContainText('Rests: each must be a whole number from 0 to 1,000,000');
  await page.getByTestId('exp-rests-input').fill('10');
  await page.getByTestId('exp-dirty-s-input').fill('20');
  await page.getByTestId('exp-states-secure-erased').uncheck();
  await page.getByTestId('exp-states-trimmed').uncheck();
  await expect(page).toHaveURL(/exp_rests=10&exp_dirty_s=20&exp_states=dirty,rested/);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  // A row per state chosen, the rested one after the rest typed: the dirty drive, then rested.
  const rows = page.getByTestId(/^exp-table-/).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  const row = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).slice(0, 2);
  expect(await row(0)).toEqual(['dirty', '0']);
  expect(await row(1)).toEqual(['rested', '10']);

  // Idle recovery takes its writes around the rests; the dirty drive's fields are gone.
  await page.getByTestId('experiment-select').selectOption('idle-recovery');
  await expect(page.getByTestId('exp-dirty-s-input')).toHaveCount(0);
  await page.getByTestId('exp-write-gb-input').fill('8');
  await page.getByTestId('exp-then-gb-input').fill('1');
  await expect(page).toHaveURL(/exp_write_gb=8&exp_then_gb=1/);
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  const idle = page.getByTestId(/^exp-table-/).locator('tbody tr');
  await expect(idle).toHaveCount(2); // before and after the one rest
  const gb = async (i: number) => Number((await idle.nth(i).locator('td').nth(2).textContent())!.replace(/,/g, ''));
  expect(await gb(0)).toBeCloseTo(8, 0);
  expect(await gb(1)).toBeCloseTo(1, 0);
});

test('a live fill of a cached drive: the SLC panels, and a slow second explained by the full cache', async ({ page }) => {
  await openApp(page, `?${SMALL_980PRO}&workload=sequential-write&precondition=none&block=1048576&qd=1&seconds=12`);
  await runToEnd(page);
  // The numbers under the chart are of what it plots, in its unit.
  await page.getByTestId('metric-select').selectOption('mb_s');
  await expect(page.getByTestId('run-stats')).toContainText(/highest [\d,.]+ MB\/s/);
  await page.getByTestId('metric-select').selectOption('mean_latency_us');
  await expect(page.getByTestId('run-stats')).toContainText(/lowest [\d.]+ (µs|ms)/);
  await page.getByTestId('metric-select').selectOption('iops');
  await expect(page.getByTestId('panel-slc')).toBeVisible();
  await expect(page.getByTestId('panel-fold')).toBeVisible();
  const box = (await page.getByTestId('iops-chart').boundingBox())!;
  // The x axis runs from 64 px to width-18 px for 0..12 s: second 8, long after the cache filled.
  await page.getByTestId('iops-chart').click({ position: { x: 64 + ((box.width - 82) * 8) / 12, y: box.height / 2 } });
  const why = page.getByTestId('why-panel');
  await expect(why).toContainText('Why was second 8 like this?');
  await expect(why).toContainText('The SLC cache was full');
  await why.getByText('Every value of this second').click();
  await expect(why.locator('table')).toContainText('Room left in the SLC cache');
  // Inside the drive, that second: the dies' time folding is named (it was drawn as idle before).
  await page.getByTestId('section-inside').locator('summary').click();
  await expect(page.getByTestId('inside-view')).toHaveAttribute('data-second', '8');
  const summary = (await page.getByTestId('die-summary').textContent())!;
  expect(Number(summary.match(/folding ([\d.]+)%/)![1])).toBeGreaterThan(0);
  // Its blocks by mode: the cache's SLC-mode blocks, written TLC blocks, free ones; they add up.
  const modes = (await page.getByTestId('block-modes-summary').textContent())!.replace(/,/g, '');
  const [slc, native, free, total] = [/SLC mode \(the cache\) (\d+)/, /TLC\/QLC mode written (\d+)/, /free (\d+)/, /of (\d+) blocks/].map(
    (re) => Number(modes.match(re)![1]),
  );
  expect(slc).toBeGreaterThan(0);
  expect(native).toBeGreaterThan(0);
  expect(slc + native + free).toBe(total);
  expect(await axeViolations(page)).toEqual([]);
});
