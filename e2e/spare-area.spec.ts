import { expect, test } from '@playwright/test';
import { SMALL_S3700, openApp, readNumber, runToEnd } from './helpers';

// The articles' partition trick in the page: testing half the LBAs leaves the rest as spare area,
// so once the drive is past its fresh phase it writes faster and amplifies less. On the small
// S3700 (see SMALL_S3700) both runs are past it within a minute: the full span falls from its
// fresh ~89K IOPS by 10 s, the half span by 30 s.
test('testing half the span raises IOPS and lowers write amplification', async ({ page }) => {
  const SECONDS = 60;

  async function runAndRead(span: string): Promise<{ iops: number; wa: number }> {
    // The radio itself is styled away; people click its label.
    await page.locator('label', { has: page.getByTestId(`span-${span}`) }).click();
    await expect(page.getByTestId(`span-${span}`)).toBeChecked();
    await runToEnd(page);
    await expect(page.getByTestId('readout-time')).toHaveText(`${SECONDS} s of ${SECONDS}`);
    return { iops: await readNumber(page, 'readout-iops'), wa: await readNumber(page, 'readout-wa') };
  }

  await openApp(page, `?seconds=${SECONDS}&span=1&${SMALL_S3700}`);
  const full = await runAndRead('1');
  const half = await runAndRead('0.5');
  expect(page.url()).toContain('span=0.5');
  // At 60 s (native, seed 1): full span 27,172 IOPS, WA 2.46 so far; half span 76,352 IOPS, WA 1.08.
  expect(half.iops).toBeGreaterThan(full.iops * 1.4);
  expect(half.wa).toBeLessThan(full.wa - 0.3);
});
