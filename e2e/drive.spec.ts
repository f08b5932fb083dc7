import { expect, test } from '@playwright/test';
import { openApp } from './helpers';

// The drive picker: all 31 presets (the zoned one runs through the host's zone store) grouped by interface with
// capacity and spare area, where each value comes from, and spare area as a slider and as
// advertised-capacity buttons.

test('picks any of the 31 drives by interface, shows its sources, and sets spare area two ways', async ({ page }) => {
  await openApp(page, '?seconds=60');
  const select = page.getByTestId('drive-select');
  await expect(select.locator('option')).toHaveCount(31);
  // The zoned drive, its spare figured from its zones' writable part (not its LBA space).
  await expect(select.locator('option[value="zn540-small"]')).toHaveText('WD Ultrastar DC ZN540 (ZNS, 20 zones) · 2.9% spare');
  await expect(select.locator('optgroup')).toHaveText([/.*/, /.*/, /.*/]);
  expect(await select.locator('optgroup').evaluateAll((gs) => gs.map((g) => (g as HTMLOptGroupElement).label))).toEqual([
    'SATA',
    'SAS',
    'PCIe / NVMe',
  ]);
  await expect(select.locator('optgroup[label="PCIe / NVMe"] option')).toHaveCount(12);
  // Each drive says its capacity and spare area in the list.
  await expect(select.locator('option[value="s3700-200"]')).toHaveText('Intel S3700 200GB · 29% spare');

  await select.selectOption('p3700-1600');
  await expect(page.getByTestId('drive-line')).toContainText('NVMe');
  await expect(page.getByTestId('drive-line')).toContainText('1.6 TB');
  expect(page.url()).toContain('drive=p3700-1600');
  await page.getByTestId('drive-sources').locator('summary').click();
  // The texts come with the engine's full module, asked for when first opened.
  await expect(page.getByTestId('drive-sources')).toContainText('geometry.dies = 128');
  await expect(page.getByTestId('drive-sources')).toContainText('128 dies of 16 GiB');

  // The slider: any tested share; the buttons: the articles' capacities.
  await select.selectOption('s3700-200');
  await expect(page.getByTestId('drive-sources')).toContainText('264 GiB raw in 33 dies');
  const slider = page.getByTestId('span-slider');
  await slider.fill('0.8');
  await expect(page.getByTestId('span-now')).toHaveText('160 GB');
  await expect.poll(() => page.url()).toContain('span=0.8');
  await page.locator('label', { has: page.getByTestId('span-0.5') }).click();
  await expect(slider).toHaveValue('0.5');
  await expect(page.getByTestId('span-now')).toHaveText('100 GB');
  // Keyboard: the slider moves by one step.
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveValue('0.51');
  await expect(page.getByTestId('span-0.5')).not.toBeChecked();

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByTestId('drive-select').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/shots/drive-${width}-${scheme}.png` });
    }
  }
});
