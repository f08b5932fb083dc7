import { expect, test } from '@playwright/test';
import { SMALL_S3700, openApp, runToEnd } from './helpers';

// "Why was this second slow?": click a dot of a lazy-GC run's wall and read what happened.

test('clicking a dot explains its second from what the drive did', async ({ page }) => {
  await openApp(page, `?seconds=60&pacing=lazy&${SMALL_S3700}`);
  await runToEnd(page);
  const box = (await page.getByTestId('iops-chart').boundingBox())!;
  // The x axis runs from 64 px to width-18 px for 0..60 s: click second 45.
  const x = 64 + ((box.width - 82) * 45) / 60;
  await page.getByTestId('iops-chart').click({ position: { x, y: box.height / 2 } });
  const panel = page.getByTestId('why-panel');
  await expect(panel).toContainText('Why was second 45 like this?');
  await expect(page.getByTestId('why-headline')).toContainText('Second 45:');
  await expect(panel).toContainText('Free blocks were at');
  await expect(panel).toContainText('Garbage collection');
  // Every column of the second is listed by a readable name.
  await panel.getByText('Every value of this second').click();
  await expect(panel.locator('table')).toContainText('Pages GC copied (4 KB)');
  await expect(panel.locator('table')).toContainText('gc_moves');

  // Step through the neighbouring seconds, then close.
  await page.getByTestId('why-next').click();
  await expect(panel).toContainText('Why was second 46 like this?');
  await panel.getByRole('button', { name: 'Close the explanation' }).click();
  await expect(panel).toHaveCount(0);

  // The panels under the chart explain seconds too.
  await page.getByTestId('chart-gc').click({ position: { x, y: 60 } });
  await expect(page.getByTestId('why-panel')).toContainText('Why was second 45 like this?');
});
