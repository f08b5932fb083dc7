import { expect, test } from '@playwright/test';
import { chartPoints, openApp, readNumber, untilAttribute, untilSecond } from './helpers';

test.describe('a consistency run on the S3700 (real wasm engine)', () => {
  test('draws a dot per simulated second and shows live numbers', async ({ page }) => {
    await openApp(page, '?seconds=60&span=1');
    await expect(page.getByRole('heading', { name: 'SSD Lab' })).toBeVisible();
    await expect(page.getByTestId('drive-select')).toHaveValue('s3700-200');
    await expect(page.getByTestId('span-1')).toBeChecked();
    await expect(page.getByText('200 GB (default)')).toBeVisible();

    await page.getByTestId('start').click();
    await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', /running|finished/);

    // Simulated time grows, IOPS are non-zero, dots reach the canvas.
    await untilSecond(page, 0);
    await untilSecond(page, await readNumber(page, 'readout-time'));
    await expect.poll(() => readNumber(page, 'readout-iops')).toBeGreaterThan(0);
    await expect.poll(() => chartPoints(page)).toBeGreaterThan(0);

    await untilAttribute(page, page.getByTestId('engine-state'), 'data-state', 'finished');
    await expect.poll(() => chartPoints(page)).toBe(60);
    await expect(page.getByTestId('readout-time')).toHaveText('60 s of 60');
    expect(await readNumber(page, 'readout-wa')).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('summary')).toContainText('Simulated 60 s');

    // The other views redraw the same run.
    await page.getByTestId('view-steady-linear').click();
    await expect(page.getByTestId('iops-chart')).toHaveAttribute('data-view', 'steady-linear');
    await expect.poll(() => chartPoints(page)).toBeGreaterThan(0);
    expect(await chartPoints(page)).toBeLessThan(60);
    expect(page.url()).toContain('view=steady-linear');
  });

  test('the page stays responsive while the engine runs, and Pause takes effect at once', async ({ page }) => {
    await openApp(page, '?seconds=5000');
    await page.getByTestId('start').click();
    await untilSecond(page, 3);

    // The main thread keeps turning: no gap between timer callbacks longer than a frame or few.
    const worstGapMs = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let last = performance.now();
          let worst = 0;
          const end = last + 1500;
          const tick = () => {
            const now = performance.now();
            worst = Math.max(worst, now - last);
            last = now;
            if (now < end) setTimeout(tick, 0);
            else resolve(worst);
          };
          setTimeout(tick, 0);
        }),
    );
    expect(worstGapMs).toBeLessThan(250);

    // Pause: the state changes within a second of the click (timed in the page, from the click's
    // event to the badge's change, not by the test's polling) and simulated time stops.
    await page.evaluate(() => {
      const w = window as unknown as { __pauseMs: Promise<number> };
      const badge = document.querySelector('[data-testid="engine-state"]')!;
      const button = document.querySelector('[data-testid="pause"]')!;
      w.__pauseMs = new Promise((resolve) => {
        button.addEventListener(
          'click',
          (e) => {
            const clicked = e.timeStamp;
            new MutationObserver((_, obs) => {
              if (badge.getAttribute('data-state') !== 'paused') return;
              obs.disconnect();
              resolve(performance.now() - clicked);
            }).observe(badge, { attributes: true, attributeFilter: ['data-state'] });
          },
          { capture: true, once: true },
        );
      });
    });
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'paused', { timeout: 2_000 });
    const pauseMs = await page.evaluate(() => (window as unknown as { __pauseMs: Promise<number> }).__pauseMs);
    expect(pauseMs).toBeLessThan(1_000);
    await expect(page.getByTestId('pause')).toHaveText('Resume');
    await page.waitForTimeout(300); // let the last in-flight slice land
    const paused = await readNumber(page, 'readout-time');
    await page.waitForTimeout(1_000);
    expect(await readNumber(page, 'readout-time')).toBe(paused);

    // Resume continues from where it stopped.
    await page.getByTestId('pause').click();
    await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'running');
    await untilSecond(page, paused);

    // Reset frees the run and clears the chart.
    await page.getByTestId('reset').click();
    await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle');
    await expect.poll(() => chartPoints(page)).toBe(0);
  });
});

test.describe('settings from the URL', () => {
  test('a bad parameter is reported readably and the other settings are kept', async ({ page }) => {
    await openApp(page, '?seconds=abc&span=0.5&seed=7');
    const alert = page.getByTestId('url-errors');
    await expect(alert).toBeVisible();
    await expect(alert).toHaveAttribute('role', 'alert');
    await expect(alert).toContainText('seconds: must be a whole number from 1 to 86,400 (got "abc")');
    await expect(page.getByTestId('span-0.5')).toBeChecked();
    await expect(page.getByTestId('span-now')).toHaveText('100 GB');
    await expect(page.getByTestId('seed-input')).toHaveValue('7');
    await expect(page.getByTestId('seconds-input')).toHaveValue('2000');
    // The page is still usable.
    await expect(page.getByTestId('start')).toBeEnabled();
  });

  test('an unknown drive is reported once the presets are known', async ({ page }) => {
    await openApp(page, '?drive=floppy&seconds=30');
    await expect(page.getByTestId('url-errors')).toContainText('drive: unknown drive "floppy"');
    await expect(page.getByTestId('drive-select')).toHaveValue('s3700-200');
    await expect(page.getByTestId('seconds-input')).toHaveValue('30');
  });
});
