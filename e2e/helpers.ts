import { expect, type Page } from '@playwright/test';

/** Opens the app with a query string and waits until the engine worker has loaded the wasm. */
export async function openApp(page: Page, query = ''): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`./${query}`);
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  expect(errors, 'uncaught page errors').toEqual([]);
}

/** The number in a readout cell, e.g. "1,234 / 3,000 s" -> 1234. */
export async function readNumber(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? '';
  const m = text.replace(/,/g, '').match(/-?\d+(\.\d+)?/);
  return m ? Number(m[0]) : NaN;
}

export async function chartPoints(page: Page, testId = 'iops-chart'): Promise<number> {
  return Number((await page.getByTestId(testId).getAttribute('data-points')) ?? '0');
}
