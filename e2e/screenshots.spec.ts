import { expect, test, type Page } from '@playwright/test';
import { SMALL_P3700, SMALL_S3700, allRunsDone, chartPoints, openApp, untilDone, untilText } from './helpers';

// Pictures of the main views for review (kept in e2e/screenshots/): a comparison of two runs with
// a second explained, at laptop and phone width, light and dark; and the first-visit guide.

const DIR = 'e2e/screenshots';

async function settle(page: Page): Promise<void> {
  // Two animation frames: the canvases redraw after a resize or a theme change.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('screenshots of the comparison and the explanation, 1280 and 390 px, light and dark', async ({ page }) => {
  await openApp(page, `?seconds=60&${SMALL_S3700}&compare=${encodeURIComponent(`seconds=60&${SMALL_S3700}&span=0.75`)}`);
  await page.getByTestId('start').click();
  await allRunsDone(page, 2);
  // Explain second 17 of 60, where the run with more spare falls from its fresh-drive speed.
  const box = (await page.getByTestId('iops-chart').boundingBox())!;
  await page.getByTestId('iops-chart').click({ position: { x: 64 + ((box.width - 82) * 17) / 60, y: 200 } });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByTestId('why-panel')).toBeVisible();

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 900 });
    await settle(page);
    await page.screenshot({ path: `${DIR}/compare-1280-${scheme}.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await page.screenshot({ path: `${DIR}/phone-390-${scheme}.png` });
    await page.getByTestId('why-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}/phone-390-why-${scheme}.png` });
    await page.evaluate(() => window.scrollTo(0, 0));
  }
});

test('screenshot of the first visit', async ({ page }) => {
  await openApp(page, '', { guide: true });
  await expect(page.getByTestId('guide')).toBeVisible();
  await page.screenshot({ path: `${DIR}/first-visit-1280-light.png` });
});

test('screenshots of inside the drive, latency, power, every parameter and a fio report, 1280 and 390 px, light and dark', async ({
  page,
}) => {
  await openApp(page, `?seconds=300&${SMALL_S3700}`);
  await page.getByTestId('workload-file-input').fill('[global]\nioengine=libaio\nverify=md5\n[w]\nrw=randwrite\nruntime=200\ntime_based\n');
  await expect(page.getByTestId('import-report')).toBeVisible();
  await page.getByTestId('start').click();
  await untilDone(
    'waiting for 40 dots',
    async () => (await chartPoints(page)) >= 40,
    () => chartPoints(page),
  );
  await page.getByTestId('pause').click();
  await page.getByTestId('cut-power').click();
  await page.getByTestId('step').click();
  await expect(page.getByTestId('power-outcome')).toContainText('acknowledged');
  await page.getByTestId('section-inside').locator('summary').click();
  await page.getByTestId('section-latency').locator('summary').click();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, id] of [
        ['inside', 'inside-view'],
        ['latency', 'latency-view'],
        ['parameters', 'params-gc'],
        ['fio-report', 'workload-file'],
      ] as const) {
        await page.getByTestId(id).scrollIntoViewIfNeeded();
        await settle(page);
        await page.screenshot({ path: `${DIR}/${name}-${width}-${scheme}.png` });
      }
    }
  }
});

test('screenshots of experiments: four corners of two drives, spare area and endurance, 1280 and 390 px, light and dark', async ({
  page,
}) => {
  const small = `${SMALL_S3700}&compare=${encodeURIComponent(SMALL_P3700)}`;
  const shots: [string, string][] = [
    ['four-corners', `?experiment=four-corners&exp_seconds=2&exp_ramp=1&exp_pre=fill&${small}`],
    ['spare-area', `?experiment=spare-area&exp_seconds=20&exp_spans=1,0.875,0.75,0.6&${SMALL_S3700}`],
    ['endurance', `?experiment=endurance&exp_seconds=20&${small}`],
  ];
  for (const [name, query] of shots) {
    await openApp(page, query);
    await page.getByTestId('exp-start').click();
    for (const i of [1, 2]) {
      if ((await page.getByTestId(`exp-run-${i}`).count()) > 0) await untilText(page, page.getByTestId(`exp-run-${i}`), 'done');
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate(() => window.scrollTo(0, 0));
        await settle(page);
        await page.screenshot({ path: `${DIR}/exp-${name}-${width}-${scheme}.png` });
        await page.getByTestId('experiment-view').scrollIntoViewIfNeeded();
        // Below the sticky controls.
        await page
          .getByTestId('experiment-view')
          .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 130));
        await settle(page);
        await page.screenshot({ path: `${DIR}/exp-${name}-charts-${width}-${scheme}.png` });
      }
    }
  }
});
