import { expect, test, type Page } from '@playwright/test';
import { SMALL_S3700, allRunsDone, openApp } from './helpers';

// Two runs at once, each in its own worker, on one chart and side by side; a real drive's fio
// log dropped beside them; a malformed log named by file and line, with the runs kept.

const seriesDrawn = async (page: Page) => Number(await page.getByTestId('iops-chart').getAttribute('data-series'));

/** Drops a file on the chart as a person dragging it from their desktop would. */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('dropzone').evaluate(
    (el, { name, text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: 'text/plain' }));
      for (const type of ['dragover', 'drop']) {
        el.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    },
    { name, text },
  );
}

test('compare two runs, then a real drive’s fio log beside them', async ({ page }) => {
  await openApp(page, `?seconds=60&${SMALL_S3700}`);
  await page.getByTestId('start').click();

  // A second run with more spare area, started while the first is still going.
  await page.getByTestId('add-run').click();
  await expect(page.getByTestId('run-2')).toContainText('not started');
  await page.locator('label', { has: page.getByTestId('span-0.5') }).click();
  await expect(page.getByTestId('run-2')).toContainText('spare');
  await page.getByTestId('start').click();
  await allRunsDone(page, 2);
  await expect.poll(() => seriesDrawn(page)).toBe(2);
  const names = [await page.getByTestId('run-1').textContent(), await page.getByTestId('run-2').textContent()];
  expect(names[0]).not.toEqual(names[1]);
  expect(page.url()).toContain('compare=');

  // Side by side: one chart per run.
  await page.getByTestId('layout-side').click();
  await expect(page.getByTestId('side-chart-1')).toHaveAttribute('data-points', '60');
  await expect(page.getByTestId('side-chart-2')).toHaveAttribute('data-points', '60');
  await page.getByTestId('layout-overlay').click();

  // A fio IOPS log of a real drive, dropped on the chart.
  const log = Array.from({ length: 60 }, (_, s) => `${(s + 1) * 1000}, ${s < 15 ? 60000 : 25000}, 1, 4096, 0`).join('\n');
  await dropFile(page, 's3700_iops.1.log', log);
  await expect(page.getByTestId('run-3')).toContainText('fio log: s3700_iops.1.log');
  await expect.poll(() => seriesDrawn(page)).toBe(3);

  // A malformed log: named by file and line; the runs on screen stay.
  await page.getByTestId('fio-input').setInputFiles({
    name: 'broken_iops.1.log',
    mimeType: 'text/plain',
    buffer: Buffer.from('1000, 5, 1, 4096, 0\n2000, lots, 1, 4096, 0\n'),
  });
  await expect(page.getByTestId('log-error')).toHaveText(
    'broken_iops.1.log, line 2: expected "time_ms, value, ddir, bs[, offset][, priority[, issue_time]]" with numbers (got "2000, lots, 1, 4096, 0")',
  );
  await expect.poll(() => seriesDrawn(page)).toBe(3);

  // Runs stay until removed.
  await page.getByTestId('remove-run-3').click();
  await expect(page.getByTestId('run-3')).toHaveCount(0);
  await expect.poll(() => seriesDrawn(page)).toBe(2);
});
