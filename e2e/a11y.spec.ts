import { expect, test } from '@playwright/test';
import { SMALL_P3700, SMALL_S3700, allRunsDone, openApp, untilSecond, untilText, axeViolations as violations } from './helpers';

// axe-core on the main views, light and dark: the empty page with the guide, two runs compared
// with a second explained, the side-by-side charts, the phone layout, and the views inside the
// drive, latency, power, every parameter and a fio job file's report.

for (const scheme of ['light', 'dark'] as const) {
  test(`no axe violations on the main views, ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await openApp(page, `?seconds=30&${SMALL_S3700}`, { guide: true });
    expect(await violations(page), 'first visit').toEqual([]);

    await page.getByTestId('guide-close').click();
    await page.getByTestId('start').click();
    await page.getByTestId('add-run').click();
    await page.locator('label', { has: page.getByTestId('span-0.5') }).click();
    await page.getByTestId('start').click();
    await allRunsDone(page, 2);
    await page.getByTestId('iops-chart').click({ position: { x: 300, y: 150 } });
    await expect(page.getByTestId('why-panel')).toBeVisible();
    await page.getByText('Every value of this second').click();
    expect(await violations(page), 'two runs, a second explained').toEqual([]);

    await page.getByTestId('layout-side').click();
    expect(await violations(page), 'side by side').toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await violations(page), 'phone').toEqual([]);
  });

  test(`no axe violations inside the drive, latency, power, parameters and a fio report, ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await openApp(page, `?seconds=300&${SMALL_S3700}`);
    await page
      .getByTestId('workload-file-input')
      .fill('[global]\nioengine=libaio\nverify=md5\n[w]\nrw=randwrite\nruntime=200\ntime_based\n');
    await expect(page.getByTestId('import-report')).toBeVisible();
    await page.getByTestId('start').click();
    await untilSecond(page, 20);
    await page.getByTestId('pause').click();
    await page.getByTestId('cut-power').click();
    await page.getByTestId('step').click();
    await expect(page.getByTestId('power-outcome')).toContainText('acknowledged');
    await page.getByTestId('section-inside').locator('summary').click();
    await page.getByTestId('section-latency').locator('summary').click();
    await expect(page.getByTestId('inside-view')).toBeVisible();
    await expect(page.getByTestId('latency-view')).toBeVisible();
    await expect(page.getByTestId('parameters')).toBeVisible();
    expect(await violations(page), 'views').toEqual([]);
  });

  test(`no axe violations on the experiments: picker, four corners of two drives, endurance, phone, ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await openApp(
      page,
      `?experiment=four-corners&exp_seconds=2&exp_ramp=1&exp_qd=1,8,32&exp_pre=fill&${SMALL_S3700}&compare=${encodeURIComponent(SMALL_P3700)}`,
    );
    expect(await violations(page), 'picker, before a run').toEqual([]);
    await page.getByTestId('exp-start').click();
    await untilText(page, page.getByTestId('exp-run-2'), 'done');
    await page.getByTestId('exp-seconds-input').fill('0');
    await expect(page.getByTestId('exp-seconds-error')).toBeVisible();
    expect(await violations(page), 'four corners, two drives, a field error').toEqual([]);
    await page.getByTestId('exp-seconds-input').fill('20');
    await page.getByTestId('experiment-select').selectOption('endurance');
    await page.getByTestId('exp-start').click();
    await expect(page.getByTestId('exp-progress-text')).toContainText('Point');
    await page.getByTestId('exp-pause').click();
    await expect(page.getByTestId('exp-progress')).toHaveAttribute('data-state', 'paused');
    expect(await violations(page), 'endurance, paused').toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await violations(page), 'phone').toEqual([]);
  });
}
