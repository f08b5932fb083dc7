import { expect, test } from '@playwright/test';
import { SMALL_S3700, allRunsDone, focusVisible, openApp, tabTo } from './helpers';

// The page without a mouse: run, compare, and drill into a second, with a visible focus.

test('keyboard only: run, compare with more spare area, and explain a second', async ({ page }) => {
  await openApp(page, `?seconds=40&${SMALL_S3700}`);

  await tabTo(page, 'start');
  expect(await focusVisible(page)).toBe(true);
  await page.keyboard.press('Enter');
  await allRunsDone(page, 1);

  await tabTo(page, 'add-run');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-2')).toContainText('not started');
  // The spare-area radios: Tab reaches the checked one, arrows choose another.
  await tabTo(page, 'span-1');
  expect(await focusVisible(page)).toBe(true);
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('span-0.5')).toBeChecked();
  await page.keyboard.press('Shift+Tab'); // back out of the group, then forward to Start
  await tabTo(page, 'start');
  await page.keyboard.press('Enter');
  await allRunsDone(page, 2);

  // The chart takes focus; arrows move between seconds and the values are read out.
  await tabTo(page, 'iops-chart');
  expect(await focusVisible(page)).toBe(true);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('iops-chart-spoken')).toContainText('Second 39:');
  for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('iops-chart-spoken')).toContainText('Second 30:');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('why-panel')).toContainText('Why was second 30 like this?');
  await expect(page.getByTestId('why-headline')).toContainText('Second 30:');
  // The explanation takes focus, so it is read next.
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('why-title');
});
