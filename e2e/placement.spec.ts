import { expect, test, type Page } from '@playwright/test';
import { SMALL_S3700, axeViolations, openApp, untilSecond } from './helpers';

// Placing data by lifetime (issue 21) in the page: the FDP drive's blocks by placement handle and
// the workload tagged by temperature; the zoned drive run through the host's zone store, its
// zones, the store's panels and the why panel's words; axe, and screenshots for review.

const FDP = `drive=fdp-s3700-200&workload=hot-cold&seconds=120&${SMALL_S3700}`;
const ZONED = 'drive=zn540-small&workload=random-write&seconds=60';
const DIR = 'e2e/screenshots';

/** Runs to past `second`, pauses, and opens inside the drive. */
async function runAndLookInside(page: Page, second: number): Promise<void> {
  await page.getByTestId('start').click();
  await untilSecond(page, second);
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'paused');
  await page.getByTestId('section-inside').locator('summary').click();
  await expect(page.getByTestId('inside-view')).toBeVisible();
}

/** The block count the handle summary gives `label` (0 when it is not listed). */
async function handleBlocks(page: Page, label: string): Promise<number> {
  const text = ((await page.getByTestId('handle-summary').textContent()) ?? '').replace(/,/g, '');
  const m = text.match(new RegExp(`${label} (\\d+) \\(`));
  return m ? Number(m[1]) : 0;
}

async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('an FDP drive: hot and cold data on their own handles, shown per die by handle', async ({ page }) => {
  // Untagged: every block the host writes is handle 0's (GC's copies in the shared stream).
  await openApp(page, `?${FDP}`);
  await expect(page.getByTestId('placement-select')).toHaveValue('untagged');
  await expect(page.getByTestId('test-about')).toContainText('fill sequentially');
  await runAndLookInside(page, 30);
  await expect(page.getByTestId('handle-legend')).toContainText('handle 0');
  await expect(page.getByTestId('handle-legend')).toContainText('handle 7');
  await expect(page.getByTestId('handle-legend')).toContainText('mixed (GC copies)');
  expect(await handleBlocks(page, 'handle 0')).toBeGreaterThan(0);
  expect(await handleBlocks(page, 'handle 1')).toBe(0);
  // Every written block is counted on some handle.
  const total = Number(await page.getByTestId('handle-grid').getAttribute('data-total'));
  expect(total).toBeGreaterThan(0);

  // By temperature, chosen in the workload's settings and kept in the link: the cold zone of the
  // distribution writes handle 1's blocks.
  await page.getByTestId('placement-select').selectOption('temperature');
  await expect.poll(() => page.url()).toContain('placement=temperature');
  await openApp(page, `?${FDP}&placement=temperature`);
  await expect(page.getByTestId('placement-select')).toHaveValue('temperature');
  await runAndLookInside(page, 30);
  expect(await handleBlocks(page, 'handle 1')).toBeGreaterThan(0);
  expect(await handleBlocks(page, 'handle 0')).toBeGreaterThan(0);
});

test('a bad placement in the link is named with the allowed values, the rest kept; other drives show no handles', async ({ page }) => {
  await openApp(page, `?${FDP}&placement=hot&seed=7`);
  await expect(page.getByTestId('url-errors')).toContainText('placement: must be one of untagged, temperature, job (got "hot")');
  await expect(page.getByTestId('placement-select')).toHaveValue('untagged');
  expect(page.url()).toContain('seed=7');

  // Threads on one handle each, more of them than the drive's 8 handles: the engine's words, at the choice.
  await openApp(page, `?${FDP}&placement=job&threads=9`);
  await expect(page.getByTestId('start-blocked')).toContainText('9 jobs need 9 handles; drive fdp-s3700-200 takes 8 (0-7)');

  await openApp(page, `?seconds=300&${SMALL_S3700}`);
  await expect(page.getByTestId('option-placement')).toHaveCount(0);
  await runAndLookInside(page, 5);
  await expect(page.getByTestId('handle-grid')).toHaveCount(0);
  await expect(page.getByTestId('zone-bars')).toHaveCount(0);
});

test('the zoned drive: its writes through the host zone store, its zones, the store’s panels and the why panel', async ({ page }) => {
  await openApp(page, '?seconds=60');
  await page.getByTestId('drive-select').selectOption('zn540-small');
  await expect(page.getByTestId('zoned-note')).toContainText('takes only sequential writes within a zone');
  await expect(page.getByTestId('zoned-note')).toContainText('host write amplification');
  // Not filled first: the store fills the zones as it writes.
  await expect(page.getByTestId('test-about')).toContainText('no sequential fill first');
  await expect(page.getByTestId('drive-line')).toContainText('20 zones of 1.03 GiB writable');
  await expect(page.getByTestId('option-store_fill')).toBeVisible();
  // Its store sets how much of it holds data: no spare area to pick.
  await expect(page.getByTestId('span-slider')).toHaveCount(0);

  // A workload the store cannot take: the engine's message, and the page still answers.
  await page.getByTestId('workload-select').selectOption('random-read');
  await expect(page.getByTestId('start-blocked')).toContainText('read_percent');
  await page.getByTestId('workload-select').selectOption('random-write');
  await expect(page.getByTestId('start-blocked')).toHaveCount(0);
  // The store has a class per temperature, not per thread: the engine says so.
  await page.getByTestId('placement-select').selectOption('job');
  await expect(page.getByTestId('start-blocked')).toContainText('zone_store.classes one or temperature');
  await page.getByTestId('placement-select').selectOption('untagged');
  await expect(page.getByTestId('start-blocked')).toHaveCount(0);

  await runAndLookInside(page, 40);
  await expect(page.getByTestId('zone-bars').locator('[data-state]')).toHaveCount(20);
  await expect(page.getByTestId('zone-summary')).toContainText('20 zones:');
  await expect(page.getByTestId('zone-summary')).toContainText('full');
  // The write pointers: a full zone's bar is filled, an empty one's is not.
  const fills = await page
    .getByTestId('zone-bars')
    .locator('[data-state]')
    .evaluateAll((zones) => zones.map((z) => [z.getAttribute('data-state'), (z.firstElementChild as HTMLElement).style.width]));
  expect(fills.filter(([s]) => s === 'full').every(([, w]) => w === '100%')).toBe(true);
  expect(fills.filter(([s]) => s === 'empty').every(([, w]) => w === '0%')).toBe(true);
  for (const id of ['host-wa', 'cleaner', 'zones']) await expect(page.getByTestId(`panel-${id}`)).toBeVisible();

  // The cleaner copies once the store has filled its share of the zones: the why panel says so.
  const box = (await page.getByTestId('iops-chart').boundingBox())!;
  const seconds = 60;
  await page.getByTestId('iops-chart').click({ position: { x: 64 + ((box.width - 82) * 35) / seconds, y: box.height / 2 } });
  await expect(page.getByTestId('why-panel')).toContainText('The host was cleaning zones:');
  await expect(page.getByTestId('why-panel')).toContainText('MB/s of its writes were copies');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`no axe violations in the handle and zone views, and screenshots of them, ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    for (const [name, query] of [
      ['fdp', `${FDP}&placement=temperature`],
      ['zoned', ZONED],
    ] as const) {
      await openApp(page, `?${query}`);
      await page.setViewportSize({ width: 1280, height: 900 });
      await runAndLookInside(page, 35);
      expect(await axeViolations(page), name).toEqual([]);
      const view = name === 'fdp' ? 'handle-grid' : 'zone-bars';
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.getByTestId(view).scrollIntoViewIfNeeded();
        await settle(page);
        await page.screenshot({ path: `${DIR}/placement-${name}-${width}-${scheme}.png` });
      }
      if (name === 'zoned') {
        await page.getByTestId('panel-host-wa').scrollIntoViewIfNeeded();
        await settle(page);
        await page.screenshot({ path: `${DIR}/placement-zoned-panels-390-${scheme}.png` });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.getByTestId('panel-host-wa').scrollIntoViewIfNeeded();
        await settle(page);
        await page.screenshot({ path: `${DIR}/placement-zoned-panels-1280-${scheme}.png` });
        await page.getByTestId('zoned-note').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${DIR}/placement-zoned-note-1280-${scheme}.png` });
      }
    }
  });
}
