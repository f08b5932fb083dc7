import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, openApp, tabTo, untilAttribute } from './helpers';

// The seeded lab `predict`, done by keyboard only with two seeds: each seed draws its own span,
// every prediction is locked before the run starts, the answers come from the engine's runs (so
// they differ between the seeds), and the hand-in holds prediction, answer and error.

interface Done {
  span: number;
  steady: number;
  winner: string;
  json: {
    seed: number;
    parameters: { span: number };
    steps: { checkpoints: { id: string; prediction?: { predicted: unknown; outcome: Record<string, unknown> | null } }[] }[];
  };
  markdown: string;
}

/** Saves the hand-in with the focused button. */
async function keyboardSave(page: Page, dir: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  return readFileSync(path, 'utf8');
}

/** Types a number into a prediction and locks it with Enter. */
async function predictNumber(page: Page, id: string, value: string): Promise<void> {
  await tabTo(page, `lab-predict-${id}-value`);
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(`lab-predict-${id}-locked`)).toContainText('(locked)');
}

/** Presses Shift+Tab until the element with this test id has focus: the way back to it is shorter. */
async function shiftTabTo(page: Page, testId: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    await page.keyboard.press('Shift+Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) === testId) return;
  }
  throw new Error(`Shift+Tab never reached ${testId}`);
}

const detail = async (page: Page, id: string) => (await page.getByTestId(`lab-check-${id}-detail`).textContent()) ?? '';

async function doLab(page: Page, seed: number, dir: string, axe: boolean): Promise<Done> {
  await openApp(page, `?lab=predict&lab_seed=${seed}`);
  await expect(page.getByTestId('lab')).toHaveAttribute('data-lab', 'predict');
  await expect(page.getByTestId('lab-seed')).toHaveAttribute('data-seed', String(seed));
  const span = Number((await page.getByTestId('lab-seed').textContent())!.match(/span = ([\d.]+)/)![1]);
  await expect(page.getByTestId('lab-setup-hint')).toContainText('Now press');
  await expect(page).toHaveURL(new RegExp(`[?&]lab_seed=${seed}(&|$)`)); // the page's address keeps the seed
  await expect(page.getByTestId('url-errors')).toHaveCount(0); // and reads it as the lab's, not a mistake
  // Nothing of the answer is shown before a prediction.
  await expect(page.getByTestId('lab-check-predict-steady-detail')).toHaveText('predict first: lock your prediction, then run the step');

  // The lab is the page's last part: the way to it is back from the end.
  await shiftTabTo(page, 'lab-student');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Ada Lovelace');
  await predictNumber(page, 'predict-wall', '12');
  await predictNumber(page, 'predict-steady', '30000');
  // A choice: Tab reaches the group, Space picks the focused option, then the lock button.
  await tabTo(page, 'lab-predict-predict-winner-choice-1');
  await page.keyboard.press('Space');
  await tabTo(page, 'lab-predict-predict-winner-lock');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('lab-predict-predict-winner-locked')).toContainText('the S3700');
  if (axe) expect(await axeViolations(page), 'predictions locked').toEqual([]);

  await shiftTabTo(page, 'start');
  await page.keyboard.press('Enter');
  for (const id of ['predict-winner', 'predict-steady', 'predict-wall', 'fell', 'consumer-worst'])
    await untilAttribute(page, page.getByTestId(`lab-check-${id}`), 'data-status', 'met');
  const steadyText = await detail(page, 'predict-steady');
  expect(steadyText).toMatch(/^predicted 30,000 IOPS · the run: [\d,]+ IOPS · error [+−][\d,]+ IOPS \([+−][\d.]+ %\): (close|not close)/);
  expect(await detail(page, 'predict-wall')).toMatch(/^predicted 12 s · the run: \d+ s · error /);
  const winnerText = await detail(page, 'predict-winner');
  expect(winnerText).toMatch(/^picked “the S3700” · the run: “the (S3700|840 Pro)” · (right|wrong)/);
  if (axe) expect(await axeViolations(page), 'answered').toEqual([]);

  await tabTo(page, 'lab-save-md');
  const markdown = await keyboardSave(page, dir);
  await tabTo(page, 'lab-save-json');
  const json = JSON.parse(await keyboardSave(page, dir)) as Done['json'];
  return {
    span,
    steady: Number(steadyText.match(/the run: ([\d,]+) IOPS/)![1].replace(/,/g, '')),
    winner: winnerText.match(/the run: “([^”]+)”/)![1],
    json,
    markdown,
  };
}

test('a seeded lab by keyboard only, with two seeds: predictions locked first, the engine’s answers differ, the hand-in has both', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ssdlab-predict-'));
  // Seeds 7 and 4 draw spans 1 and 0.7 (seeds.ts's mulberry32): the steady IOPS and the winner differ.
  const a = await doLab(page, 7, dir, true);
  const b = await doLab(page, 4, dir, false);
  expect([a.span, b.span]).toEqual([1, 0.7]);
  expect(b.steady).toBeGreaterThan(a.steady * 1.5);
  expect(a.winner).not.toBe(b.winner);

  for (const [done, seed] of [
    [a, 7],
    [b, 4],
  ] as const) {
    expect(done.json).toMatchObject({ seed, parameters: { span: done.span } });
    const steady = done.json.steps[0].checkpoints.find((c) => c.id === 'predict-steady')!.prediction!;
    expect(steady.predicted).toBe(30000);
    expect(Math.round(steady.outcome!.answer as number)).toBe(done.steady);
    expect(steady.outcome!.error).toBeCloseTo(30000 - (steady.outcome!.answer as number), 6);
    expect(steady.outcome).toHaveProperty('error_percent');
    const winner = done.json.steps[0].checkpoints.find((c) => c.id === 'predict-winner')!.prediction!;
    expect(winner.outcome).toEqual({ predicted: 'the S3700', answer: done.winner, correct: done.winner === 'the S3700' });
    expect(done.markdown).toContain(`- Seed: ${seed} (span = ${done.span})`);
    expect(done.markdown).toMatch(
      /- \[x\] How many IOPS will the S3700 write on average from 20 s on\? \(predicted 30,000 IOPS · the run: [\d,]+ IOPS · error /,
    );
  }
});
