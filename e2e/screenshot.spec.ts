import { expect, test } from '@playwright/test';
import { chartPoints, openApp } from './helpers';

// Pictures of the chart for review (e2e/.output/, not committed): a run long enough to leave the
// fresh-drive plateau and enter the garbage-collection regime.
test('screenshots of a 400 s S3700 run in each view', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page, '?seconds=400');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'finished', { timeout: 160_000 });
  expect(await chartPoints(page)).toBe(400);

  await page.screenshot({ path: 'e2e/.output/app.png', fullPage: true });
  for (const view of ['whole-log', 'steady-log', 'steady-linear']) {
    await page.getByTestId(`view-${view}`).click();
    await expect(page.getByTestId('iops-chart')).toHaveAttribute('data-view', view);
    await page.waitForTimeout(100); // one animation frame for the canvas
    await page.getByTestId('iops-chart').screenshot({ path: `e2e/.output/chart-${view}.png` });
  }
});
