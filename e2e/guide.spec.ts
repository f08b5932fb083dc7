import { expect, test } from '@playwright/test';
import { openApp, untilSecond } from './helpers';

// The first-visit guide: from the empty page to a second explained, then not shown again.

test('the first-visit guide runs the test, points at the drop and is remembered once closed', async ({ page }) => {
  // A small drive, so the drop comes within seconds here (the guide itself runs 600 s).
  await openApp(
    page,
    '?set.geometry.blocks_per_plane=128&set.user_bytes=12500000768&set.gc.start_free_blocks=6&set.gc.boost_below_free_blocks=3&set.gc.boost_until_free_blocks=5',
    { guide: true },
  );
  const guide = page.getByTestId('guide');
  await expect(guide).toContainText('Step 1 of 4');
  await page.getByTestId('guide-try').click();
  await expect(page.getByTestId('seconds-input')).toHaveValue('600');
  await expect(guide).toContainText('Watch the drop');
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', /running|finished/, { timeout: 30_000 });
  await page.getByTestId('guide-next').click();
  await expect(guide).toContainText('Ask a dot why');
  await untilSecond(page, 30);
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'paused');
  // Second 20 of the 600 s axis (plot from 64 px to 18 px before the right edge).
  const box = (await page.getByTestId('iops-chart').boundingBox())!;
  await page.getByTestId('iops-chart').click({ position: { x: 64 + ((box.width - 82) * 20) / 600, y: 200 } });
  await expect(page.getByTestId('why-panel')).toBeVisible();
  await page.getByTestId('guide-next').click();
  await page.getByTestId('guide-done').click();
  await expect(guide).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('guide')).toHaveCount(0);
});
