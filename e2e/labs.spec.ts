import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, openApp, untilText } from './helpers';

// Every lab in public/labs done end to end with the real engine: each step set up from the lab
// file, run with the page's own buttons, and each checkpoint turning to met from the live
// results (nothing here writes a result). One test also reloads, saves the hand-in and prints.

const SHOTS = 'e2e/screenshots';

async function save(page: Page, testId: string, dir: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

/** Opens a lab by link; its first step sets itself up. */
async function openLab(page: Page, id: string): Promise<void> {
  await openApp(page, `?lab=${id}`);
  await expect(page.getByTestId('lab')).toHaveAttribute('data-lab', id);
  await expect(page.getByTestId('lab-setup-hint')).toContainText('Now press');
  // The lab's settings are all the page's and the engine's own: nothing was refused.
  await expect(page.getByTestId('url-errors')).toHaveCount(0);
  await expect(page.getByTestId('lab-setup-problems')).toHaveCount(0);
}

/** Runs the step that is set up with the page's buttons and waits until every run is done. */
async function runStep(page: Page, runs: number, experiment: boolean): Promise<void> {
  const prefix = experiment ? 'exp-run' : 'run';
  await expect(page.getByTestId(`${prefix}-${runs}`)).toBeVisible();
  await expect(page.getByTestId(`${prefix}-${runs + 1}`)).toHaveCount(0);
  await page.getByTestId(experiment ? 'exp-start' : 'start').click();
  for (let i = 1; i <= runs; i++) await untilText(page, page.getByTestId(`${prefix}-${i}`), experiment ? 'points, done' : 'done');
}

/** Waits for these checkpoints to be met, read from the results on the page. */
async function expectMet(page: Page, ids: readonly string[]): Promise<void> {
  for (const id of ids) await expect(page.getByTestId(`lab-check-${id}`), id).toHaveAttribute('data-status', 'met');
}

async function answer(page: Page, answers: Record<string, string>): Promise<void> {
  for (const [id, text] of Object.entries(answers)) await page.getByTestId(`lab-answer-${id}`).fill(text);
}

/** Locks a prediction before the step's runs start: a number typed, or a choice picked by its label. */
async function predict(page: Page, id: string, value: string): Promise<void> {
  const number = page.getByTestId(`lab-predict-${id}-value`);
  if (await number.count()) await number.fill(value);
  else await page.getByTestId(`lab-predict-${id}`).getByLabel(value).check();
  await page.getByTestId(`lab-predict-${id}-lock`).click();
  await expect(page.getByTestId(`lab-predict-${id}-locked`)).toContainText('(locked)');
}

async function nextStep(page: Page, n: number): Promise<void> {
  await page.getByTestId('lab-next').click();
  await expect(page.getByTestId('lab-step')).toHaveAttribute('data-step', String(n));
  await page.getByTestId('lab-setup').click();
  await expect(page.getByTestId('lab-setup-hint')).toContainText('Now press');
  await expect(page.getByTestId('lab-setup-problems')).toHaveCount(0);
}

test('lab cliff: the wall, free blocks and spare area; a reload keeps the progress; the hand-in and the worksheet', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'ssdlab-lab-'));
  await openLab(page, 'cliff');
  await expect(page.getByTestId('lab-check-the-wall')).toHaveAttribute('data-status', 'waiting');
  await expect(page.getByTestId('lab-key-when-fall')).toHaveCount(0); // the answer key is hidden by default
  await predict(page, 'predict-wall', '20');
  await runStep(page, 1, false);
  await expectMet(page, ['predict-wall', 'fresh-fast', 'the-wall', 'free-gone', 'wa-rises', 'steady']);
  await expect(page.getByTestId('lab-check-predict-wall-detail')).toHaveText(/^predicted 20 s · the run: \d+ s · error /);
  await expect(page.getByTestId('lab-check-the-wall-detail')).toHaveText(/^\d+ s < 60$/);
  await page.getByTestId('lab-student').fill('Ada Lovelace');
  await answer(page, { 'when-fall': 'About 16 s; free blocks fell to the GC level.' });

  // A reload keeps the step, its runs' settings, the answers and the checkpoints met.
  await page.reload();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  expect(page.url()).toContain('lab=cliff');
  expect(page.url()).toContain('seconds=80');
  await expectMet(page, ['predict-wall', 'fresh-fast', 'the-wall', 'free-gone', 'wa-rises', 'steady']);
  await expect(page.getByTestId('lab-predict-predict-wall-locked')).toContainText('20 s');
  await expect(page.getByTestId('lab-answer-when-fall')).toHaveValue('About 16 s; free blocks fell to the GC level.');
  await expect(page.getByTestId('lab-student')).toHaveValue('Ada Lovelace');
  await expect(page.getByTestId('lab-tally')).toContainText('6 of 9 checkpoints met · 1 of 5 questions answered');

  await nextStep(page, 2);
  await expect(page.getByTestId('lab-check-later-wall')).toHaveAttribute('data-status', 'waiting');
  await runStep(page, 2, false);
  await expectMet(page, ['later-wall', 'higher-floor', 'lower-wa']);
  await expect(page.getByTestId('lab-tally')).toContainText('9 of 9 checkpoints met');
  await answer(page, { 'unwritten-spare': 'Its flash becomes spare area.' });

  // The hand-in: answers and the checkpoints with what was measured, no answer key.
  const markdown = readFileSync(await save(page, 'lab-save-md', dir), 'utf8');
  expect(markdown).toContain('# Lab: Why performance falls off a cliff');
  expect(markdown).toContain('- Student: Ada Lovelace');
  expect(markdown).toContain('- Checkpoints met: 9 of 9');
  expect(markdown).toMatch(/- \[x\] Before you run: at which second .* \(predicted 20 s · the run: \d+ s · error /);
  expect(markdown).toMatch(/- \[x\] IOPS fell below half of the fresh rate before 60 s \(the wall\) \(measured \d+ s < 60, /);
  expect(markdown).toContain('> Its flash becomes spare area.');
  expect(markdown).not.toContain('Answer key');
  const json = JSON.parse(readFileSync(await save(page, 'lab-save-json', dir), 'utf8'));
  expect(json).toMatchObject({ lab: 'cliff', student: 'Ada Lovelace', seed: null, checkpoints_met: 9, checkpoints: 9 });
  expect(json.steps[0].checkpoints[0].prediction).toMatchObject({ predicted: 20, outcome: { predicted: 20, unit: 's' } });
  expect(json.steps[0].questions[0]).toEqual({
    id: 'when-fall',
    text: expect.any(String),
    answer: 'About 16 s; free blocks fell to the GC level.',
  });

  // The worksheet prints every step; the answer key only while it is shown.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('lab-worksheet')).toBeVisible();
  await expect(page.getByTestId('iops-chart')).toBeHidden();
  await expect(page.getByTestId('lab-worksheet')).toContainText('Step 2: Leave part of the drive unwritten');
  await expect(page.getByTestId('lab-worksheet')).not.toContainText('Answer key');
  await page.emulateMedia({ media: 'screen' });
  await page.getByTestId('lab-key-toggle').check();
  await expect(page.getByTestId('lab-key-unwritten-spare')).toContainText('spare area');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('lab-worksheet')).toContainText('Answer key: Around 8 s');
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.screenshot({ path: `${SHOTS}/lab-worksheet-print.png`, fullPage: true });
  await page.emulateMedia({ media: 'screen' });

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('lab').evaluate((el) => el.closest('aside')?.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/lab-1280-${scheme}.png` });
    await page.getByTestId('lab-checks').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/lab-checks-1280-${scheme}.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/lab-390-${scheme}.png` });
    await page.getByTestId('lab-checks').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/lab-checks-390-${scheme}.png` });
  }
});

test('the list of labs opens any lab; a missing or broken lab file is named and the other settings stay', async ({ page }) => {
  await openApp(page, '?seconds=300');
  await page.getByTestId('labs-button').click();
  await expect(page.getByTestId('lab-list').getByRole('link')).toHaveCount(9);
  await expect(page.getByTestId('lab-link-queue')).toContainText('Queue depth: SATA against NVMe');
  await page.screenshot({ path: `${SHOTS}/lab-list-1280-light.png` });
  expect(await axeViolations(page), 'the list of labs').toEqual([]);
  await page.getByTestId('lab-link-queue').click();
  await expect(page.getByTestId('lab')).toHaveAttribute('data-lab', 'queue');
  expect(new URL(page.url()).searchParams.get('lab')).toBe('queue');
  await page.getByTestId('lab-key-toggle').check();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `a lab, ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await openApp(page, '?lab=nope&seconds=300');
  await expect(page.getByTestId('lab-error')).toContainText(
    'lab: no lab named "nope" (known: cliff, spare, consistency, queue, power, raid, slc, predict, placement)',
  );
  await expect(page.getByTestId('seconds-input')).toHaveValue('300');

  // A lab file with a mistake in it (served in place of a real one) is named by its field.
  await page.route('**/labs/raid.json', async (route) => {
    const lab = await (await route.fetch()).json();
    lab.steps[0].checkpoints[0].check.op = '=>';
    await route.fulfill({ json: lab });
  });
  await openApp(page, '?lab=raid&seconds=300');
  await expect(page.getByTestId('lab-error')).toContainText(
    'labs/raid.json: steps[0].checkpoints[0].check.op: must be one of >, >=, <, <=, == (got "=>")',
  );
  await expect(page.getByTestId('lab')).toHaveCount(0);
  await expect(page.getByTestId('seconds-input')).toHaveValue('300');
});

test('lab spare: write amplification against spare area, and a consumer drive rescued by it', async ({ page }) => {
  await openLab(page, 'spare');
  await predict(page, 'predict-half', '40000');
  await runStep(page, 1, true);
  await expectMet(page, ['predict-half', 'wa-full', 'wa-half', 'iops-half']);
  await expect(page.getByTestId('lab-check-predict-half-detail')).toHaveText(/^predicted 40,000 IOPS · the run: [\d,]+ IOPS · error /);
  await nextStep(page, 2);
  await runStep(page, 2, true);
  await expectMet(page, ['consumer-wa', 'consumer-rescued']);
  await expect(page.getByTestId('lab-tally')).toContainText('6 of 6 checkpoints met');
});

test('lab consistency: a thin line, walls and scatter; the same flash with lazy GC', async ({ page }) => {
  await openLab(page, 'consistency');
  await predict(page, 'predict-slowest', 'the 840 Pro');
  await runStep(page, 3, false);
  await expectMet(page, ['predict-slowest', 's3700-flat', 'p400e-wall', '840-scatter', 'worst-second']);
  // The engine's answer: the P400e's walls reach zero IOPS, below the 840 Pro's scatter.
  await expect(page.getByTestId('lab-check-predict-slowest-detail')).toContainText('picked “the 840 Pro” · the run: “the P400e” · wrong');
  await nextStep(page, 2);
  await runStep(page, 2, false);
  await expectMet(page, ['lazy-walls']);
  await expect(page.getByTestId('lab-tally')).toContainText('6 of 6 checkpoints met');
});

test('lab queue: SATA stops at 32 commands and 550 MB/s, NVMe keeps scaling', async ({ page }) => {
  await openLab(page, 'queue');
  await runStep(page, 2, true);
  await expectMet(page, ['qd-helps', 'sata-32', 'nvme-beyond', 'sata-link', 'pcie-link']);
});

test('lab power: capacitors, a volatile cache and write-through; capacitors that fail', async ({ page }) => {
  await openLab(page, 'power');
  await runStep(page, 3, false);
  await expectMet(page, ['caps-safe', 'volatile-loses', 'through-safe', 'through-slow']);
  await nextStep(page, 2);
  await runStep(page, 1, false);
  await expectMet(page, ['first-cut-loses', 'second-cut-safe', 'smart-flag']);
});

test('lab slc: a cached drive’s fall, QLC against TLC, a rest, and the whole fill', async ({ page }) => {
  await openLab(page, 'slc');
  await predict(page, 'predict-fall', '10');
  await runStep(page, 1, false);
  await expectMet(page, ['predict-fall', 'fast-then-slow', 'cache-empty']);
  await expect(page.getByTestId('panel-slc')).toBeVisible();
  await nextStep(page, 2);
  await predict(page, 'predict-slowest', 'the 870 QVO (QLC)');
  await runStep(page, 2, false);
  await expectMet(page, ['predict-slowest', 'qlc-falls-further']);
  await expect(page.getByTestId('lab-check-predict-slowest-detail')).toContainText('picked “the 870 QVO (QLC)” · the run: “the 870 QVO (QLC)”');
  await nextStep(page, 3);
  await predict(page, 'predict-rest', '3000');
  await runStep(page, 1, true);
  await expectMet(page, ['predict-rest', 'rest-helps']);
  await nextStep(page, 4);
  await runStep(page, 1, true);
  await expectMet(page, ['finished', 'average-below-box']);
  await expect(page.getByTestId('exp-chart-fill').getByTestId('xy-guides')).toContainText('cache full at');
  await expect(page.getByTestId('lab-tally')).toContainText('9 of 9 checkpoints met');
});

test('lab raid: striping doubles IOPS until the host adapters’ link caps it', async ({ page }) => {
  await openLab(page, 'raid');
  await runStep(page, 1, true);
  await expectMet(page, ['four-to-eight', 'eight-to-sixteen', 'the-cap', 'the-link']);
});
