import { expect, test } from '@playwright/test';
import {
  SMALL_P3700,
  SMALL_S3700,
  chartPoints,
  openApp,
  pageProgress,
  readNumber,
  runToEnd,
  untilAttribute,
  untilDone,
  untilSecond,
} from './helpers';

// Pause, step, resume and restart a run; the progress bar; number fields that keep what is typed.

test('pause, step one simulated second, resume and restart', async ({ page }) => {
  await openApp(page, `?seconds=150&${SMALL_S3700}`);
  await expect(page.getByTestId('step')).toBeDisabled();
  await page.getByTestId('start').click();
  await untilSecond(page, 20);
  // The progress bar tells simulated time, the speed in simulated seconds per wall second, time left.
  await expect(page.getByTestId('progress-time')).toContainText('of 150 s');
  await expect(page.getByTestId('progress-speed')).toContainText(/\d+(\.\d)?× real time/);
  await expect(page.getByTestId('progress')).toContainText('left');

  await page.getByTestId('pause').click();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'paused');
  const paused = await readNumber(page, 'readout-time');
  await expect(page.getByTestId('progress')).toContainText('paused');

  // Step: exactly one more second, then paused again; the chart has a dot for it.
  await page.getByTestId('step').click();
  await expect.poll(() => readNumber(page, 'readout-time')).toBe(paused + 1);
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'paused');
  await expect.poll(() => chartPoints(page)).toBe(paused + 1);
  await page.getByTestId('step').click();
  await expect.poll(() => readNumber(page, 'readout-time')).toBe(paused + 2);

  await page.getByTestId('pause').click(); // now "Resume"
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', /running|finished/);
  await untilSecond(page, paused + 2);

  // Restart runs the same settings again from the beginning.
  await page.getByTestId('restart').click();
  await untilDone(
    'waiting for the restarted run',
    async () => (await readNumber(page, 'readout-time')) < paused,
    () => pageProgress(page),
  );
  await untilAttribute(page, page.getByTestId('engine-state'), 'data-state', 'finished');
  await expect(page.getByTestId('summary')).toContainText('real time');
});

test('the duration field keeps what is typed and names its range', async ({ page }) => {
  await openApp(page, '?seconds=2000');
  const seconds = page.getByTestId('seconds-input');
  // Backspacing to empty and typing 600 gives 600 (not 2600).
  await seconds.click();
  await seconds.press('End');
  for (let i = 0; i < 4; i++) await seconds.press('Backspace');
  await expect(seconds).toHaveValue('');
  await expect(page.getByTestId('seconds-error')).toHaveText('Duration: needs a value');
  await expect(page.getByTestId('start')).toBeDisabled();
  await seconds.pressSequentially('600');
  await expect(seconds).toHaveValue('600');
  await expect(page.getByTestId('seconds-error')).toHaveCount(0);
  await expect.poll(() => page.url()).toContain('seconds=600');

  for (const typed of ['99999999', '-5', '12.5', 'abc']) {
    await seconds.fill(typed);
    await expect(seconds).toHaveValue(typed);
    await expect(page.getByTestId('seconds-error')).toContainText('Duration: must be a whole number');
    await expect(page.getByTestId('start-blocked')).toContainText('Duration: must be');
  }
  await expect(page.getByTestId('seconds-error')).toHaveText('Duration: must be a whole number from 1 to 86,400 (got "abc")');
  // The last good value stays in effect (and in the link) meanwhile.
  expect(page.url()).toContain('seconds=600');
  await seconds.fill('60');
  await expect(page.getByTestId('start')).toBeEnabled();
  await expect(page.getByTestId('start-blocked')).toHaveCount(0);
});

test('a negative parameter is refused for its range, in the words of the control', async ({ page }) => {
  await openApp(page, '?seconds=60&set.gc.paced_percent=-50');
  await expect(page.getByTestId('param-gc.paced_percent-error')).toHaveText(
    'Drive parameters, gc.paced_percent: must be between 10 and 1000 (got -50)',
  );
  await expect(page.getByTestId('start')).toBeDisabled();
  await page.getByTestId('block-input').fill('1000');
  await page.getByTestId('param-gc.paced_percent-reset').click();
  await expect(page.getByTestId('option-block')).toContainText('Request size: ');
  await expect(page.getByTestId('start-blocked')).toContainText('Request size: ');
});

test('the linear steady-state view fits a fast drive instead of pinning it to the top', async ({ page }) => {
  await openApp(page, `?${SMALL_P3700}&span=0.5&seconds=30&view=steady-linear`);
  await runToEnd(page);
  // Seconds 21 to 29 (the steady state of a 30 s run starts at 70 % of it).
  await expect.poll(() => chartPoints(page)).toBe(9);
  // ~120K IOPS in steady state: inside the axis, none drawn at the top edge.
  await expect(page.locator('.chart-notes .note.above')).toHaveCount(0);
  const top = await page.getByTestId('iops-chart').locator('.ticks.y text').last().textContent();
  expect(Number(top!.replace('K', '')) * 1000).toBeGreaterThan(100_000);
});
