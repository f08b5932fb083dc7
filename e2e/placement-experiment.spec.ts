import { expect, test, type Page } from '@playwright/test';
import { axeViolations, openApp, untilExperimentFinished, untilText } from './helpers';

// The placement experiment in the page with the real engine: its settings from the link (bad
// values named, the rest kept) sent in the request, its bars and table; the lab "Put data where
// it will die together" end to end; the experiment in an embed; axe and screenshots.

const SHOTS = '/tmp/placeexp-shots';
/** One host at one over-provisioning, its data written once: three points in a few seconds. */
const SMALL = 'drive=fdp-s3700-200&experiment=placement&exp_hosts=streams&exp_op=28&exp_dw=1';
const CHARTS = ['device-wa', 'host-wa', 'total-wa', 'mb-s'].map((c) => `exp-chart-placement-${c}`);

async function runExperiment(page: Page): Promise<void> {
  await expect(page.getByTestId('exp-start')).toBeEnabled();
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
}

/** The table's cell of `column` in the row of `layout`. */
async function cell(page: Page, layout: string, column: string): Promise<number> {
  const table = page.getByTestId(/^exp-table-/);
  const heads = await table.locator('thead th').allTextContents();
  const row = table.locator('tbody tr', { has: page.locator('td', { hasText: new RegExp(`^${layout}$`) }) });
  return Number((await row.locator('td').nth(heads.indexOf(column)).textContent())!.replace(/,/g, ''));
}

test('the placement experiment runs from the link: settings at their controls, in the request, bars and table', async ({ page }) => {
  await openApp(page, `?${SMALL}&exp_layouts=block,zoned,block`);
  // A bad list is named with the allowed values; the other settings stay.
  await expect(page.getByTestId('url-errors')).toContainText('exp_layouts: "block" is not one of block, fdp, zoned (each at most once)');
  await expect(page.getByTestId('experiment-select')).toHaveValue('placement');
  await expect(page.getByTestId('exp-hosts-streams')).toBeChecked();
  await expect(page.getByTestId('exp-hosts-cache')).not.toBeChecked();
  await expect(page.getByTestId('exp-layouts-fdp')).toBeChecked();
  await expect(page.getByTestId('exp-op-input')).toHaveValue('28');
  await expect(page.getByTestId('exp-dw-input')).toHaveValue('1');
  // The experiment takes no ramp or queue depths.
  await expect(page.getByTestId('exp-ramp-input')).toHaveCount(0);
  await expect(page.getByTestId('exp-qd-input')).toHaveCount(0);

  await runExperiment(page);
  await expect(page.getByTestId('experiment-view')).toHaveAttribute('data-kind', 'placement');
  await expect(page.getByTestId('exp-progress-text')).toContainText('3 of 3 points, done');
  await expect(page.getByTestId(/^exp-table-/).locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId(/^exp-cli-/)).toContainText('--hosts streams --layouts block,fdp,zoned --op-percents 28 --drive-writes 1');
  // A bar per layout on each chart, in one group (streams at 28 %).
  for (const id of CHARTS) await expect(page.getByTestId(id).locator('rect:not(.frame)'), id).toHaveCount(3);
  await expect(page.getByTestId(CHARTS[0])).toContainText('streams');
  await expect(page.getByTestId(CHARTS[0])).toContainText('fdp: tagged with placement handles');
  // The lesson, from the engine's rows: tagged and zoned near 1, the block drive copies.
  expect(await cell(page, 'fdp', 'Write amplification')).toBeLessThan(1.05);
  expect(await cell(page, 'zoned', 'GC copies')).toBe(0);
  expect(await cell(page, 'block', 'Write amplification')).toBeGreaterThan(await cell(page, 'fdp', 'Write amplification'));

  // A change at a control goes to the link; the full set is one press away.
  await page.getByTestId('exp-hosts-lsm').check();
  await expect(page).toHaveURL(/exp_hosts=streams,lsm/);
  await page.getByTestId('exp-placement-full').click();
  await expect(page).toHaveURL(/exp_hosts=uniform,hot-cold,streams,cache,lsm/);
  await expect(page).toHaveURL(/exp_dw=4/);
  await page.getByTestId('exp-placement-page').click();
  await expect(page).not.toHaveURL(/exp_hosts/);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the placement view has no axe violations, and screenshots of it, ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await openApp(page, `?drive=fdp-s3700-200&experiment=placement&exp_hosts=streams,hot-cold&exp_op=28&exp_dw=1`);
    await runExperiment(page);
    expect(await axeViolations(page)).toEqual([]);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByTestId(CHARTS[0]).scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SHOTS}/placement-view-${width}-${scheme}.png` });
      await page.getByTestId(CHARTS[1]).screenshot({ path: `${SHOTS}/placement-host-wa-${width}-${scheme}.png` });
      await page.getByTestId('placement-explain').screenshot({ path: `${SHOTS}/placement-explain-${width}-${scheme}.png` });
      await page.getByTestId(/^exp-table-/).screenshot({ path: `${SHOTS}/placement-table-${width}-${scheme}.png` });
      await page.getByTestId('placement-settings').screenshot({ path: `${SHOTS}/placement-settings-${width}-${scheme}.png` });
    }
  });
}

test('lab placement: three layouts, a tagged cache, and the zoned drive’s host cost', async ({ page }) => {
  await openApp(page, '?lab=placement');
  await expect(page.getByTestId('lab')).toHaveAttribute('data-lab', 'placement');
  await expect(page.getByTestId('lab-setup-hint')).toContainText('Now press');
  await expect(page.getByTestId('url-errors')).toHaveCount(0);
  await expect(page.getByTestId('lab-setup-problems')).toHaveCount(0);
  await page.getByTestId('lab-predict-predict-block-value').fill('2');
  await page.getByTestId('lab-predict-predict-block-lock').click();
  await expect(page.getByTestId('lab-predict-predict-block-locked')).toContainText('(locked)');

  const step = async (ids: string[]) => {
    await expect(page.getByTestId('exp-run-1')).toBeVisible();
    await page.getByTestId('exp-start').click();
    await untilText(page, page.getByTestId('exp-run-1'), 'points, done');
    for (const id of ids) await expect(page.getByTestId(`lab-check-${id}`), id).toHaveAttribute('data-status', 'met');
  };
  const next = async (n: number) => {
    await page.getByTestId('lab-next').click();
    await expect(page.getByTestId('lab-step')).toHaveAttribute('data-step', String(n));
    await page.getByTestId('lab-setup').click();
    await expect(page.getByTestId('lab-setup-hint')).toContainText('Now press');
    await expect(page.getByTestId('lab-setup-problems')).toHaveCount(0);
  };
  await step(['predict-block', 'block-copies', 'fdp-one', 'zoned-no-gc', 'zoned-faster']);
  await expect(page.getByTestId('lab-check-predict-block-detail')).toHaveText(/^predicted 2 × \(WA\) · the run: [\d.]+ × \(WA\) · error /);
  await next(2);
  await step(['cache-fdp-one', 'cache-block-tight', 'cache-fdp-tight']);
  await next(3);
  await step(['zoned-device-one', 'zoned-host-pays', 'zoned-total-lower']);
  await expect(page.getByTestId('lab-tally')).toContainText('11 of 11 checkpoints met');
  expect(await axeViolations(page)).toEqual([]);
});

test('the placement experiment embeds: its settings from the embed’s link, its bars and table', async ({ page }) => {
  await page.goto(`./embed.html?${SMALL}&show=chart`);
  await expect(page.getByTestId('exp-start')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  await expect(page.getByTestId('experiment-view')).toHaveAttribute('data-kind', 'placement');
  for (const id of CHARTS) await expect(page.getByTestId(id).locator('rect:not(.frame)'), id).toHaveCount(3);
  await expect(page.getByTestId(/^exp-table-/).locator('tbody tr')).toHaveCount(3);
  expect(await axeViolations(page)).toEqual([]);
});
