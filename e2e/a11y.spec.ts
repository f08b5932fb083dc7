import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { SMALL_S3700, allRunsDone, openApp } from './helpers';

// axe-core on the main views, light and dark: the empty page with the guide, two runs compared
// with a second explained, the side-by-side charts, and the phone layout.

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join('; ')})`);
}

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
}
