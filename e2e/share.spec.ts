import { expect, test } from '@playwright/test';
import { openApp } from './helpers';

// A shared link opens every run's settings; the state survives a reload.

test('a share link opens both runs with their settings, and a reload keeps them', async ({ page, context }) => {
  const second = encodeURIComponent('seconds=30&drive=p3700-400&victim=fifo');
  await openApp(page, `?seconds=30&span=0.75&pacing=lazy&view=steady-log&compare=${second}`);
  await expect(page.getByTestId('run-1')).toContainText('S3700 200GB');
  await expect(page.getByTestId('run-1')).toContainText('GC pacing: Lazy');
  await expect(page.getByTestId('run-2')).toContainText('P3700 400GB');
  await expect(page.getByTestId('run-2')).toContainText('GC victim block: FIFO');
  await expect(page.getByTestId('span-0.75')).toBeChecked();
  await expect(page.getByTestId('pacing-lazy')).toBeChecked();
  await expect(page.getByTestId('iops-chart')).toHaveAttribute('data-view', 'steady-log');
  await expect(page.getByTestId('start')).toHaveText('Start 2 runs');

  // The settings panel edits the run chosen in the legend.
  await page.getByTestId('run-2').getByRole('button').first().click();
  await expect(page.getByTestId('drive-select')).toHaveValue('p3700-400');
  await expect(page.getByTestId('victim-select')).toHaveValue('fifo');
  await page.getByTestId('seed-input').fill('7');
  await expect.poll(() => page.url()).toContain('seed%3D7');
  expect(page.url()).toContain('edit=2');

  await page.reload();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('run-2')).toContainText('seed 7');
  await expect(page.getByTestId('drive-select')).toHaveValue('p3700-400');
  await expect(page.getByTestId('run-1')).toContainText('GC pacing: Lazy');
  await expect(page.getByTestId('iops-chart')).toHaveAttribute('data-view', 'steady-log');

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-link').click();
  await expect(page.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
});
