import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { NATIVE_CLI, SMALL_S3700, openApp, runToEnd, untilAttribute, untilSecond } from './helpers';

// Every export of a run: the CSV equals `ssdlab run --csv` for the exported config, which the CLI
// accepts; fio logs in fio's format; the chart as PNG and SVG.

async function save(page: Page, testId: string, dir: string): Promise<{ name: string; path: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  return { name: download.suggestedFilename(), path };
}

/** The CSV `ssdlab run` writes for a config file. */
function cliCsv(configPath: string, steadyFrom: number, dir: string): string {
  const out = join(dir, 'cli.csv');
  execFileSync('cargo', [...NATIVE_CLI, 'run', '--config', configPath, '--steady-from', String(steadyFrom), '--csv', out], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return readFileSync(out, 'utf8');
}

test('the CSV equals the CLI’s for the exported config; fio logs; PNG and SVG of the chart', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'ssdlab-export-'));
  await openApp(page, `?seconds=40&seed=3&pacing=lazy&${SMALL_S3700}`);
  await runToEnd(page);

  const csv = await save(page, 'export-csv', dir);
  const json = await save(page, 'export-json', dir);
  expect(csv.name).toMatch(/\.csv$/);
  const config = JSON.parse(readFileSync(json.path, 'utf8'));
  expect(config).toMatchObject({ drive: 's3700-200', seconds: 40, seed: 3, set: { 'gc.pacing': 'lazy' } });

  // The command the page shows, run for real.
  const command = (await page.getByTestId('cli-command').textContent())!;
  expect(command).toBe(`ssdlab run --config ${json.name} --steady-from 28 --csv samples.csv --json`);
  const page_ = readFileSync(csv.path, 'utf8');
  expect(page_.split('\n')).toHaveLength(42); // header, 40 seconds, final newline
  expect(page_).toBe(cliCsv(json.path, 28, dir));

  for (const type of ['iops', 'lat', 'bw']) {
    const log = await save(page, `export-fio-${type}`, dir);
    expect(log.name).toMatch(new RegExp(`_${type}\\.1\\.log$`));
    const lines = readFileSync(log.path, 'utf8').trim().split('\n');
    // One line a second; the latency log leaves out the seconds lazy GC completed nothing in.
    if (type === 'lat') expect(lines.length).toBeGreaterThan(20);
    else expect(lines).toHaveLength(40);
    expect(lines[0]).toMatch(/^1000, \d+, 1, 4096, 0$/);
  }

  const png = await save(page, 'iops-chart-png', dir);
  expect(readFileSync(png.path).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const svg = readFileSync((await save(page, 'iops-chart-svg', dir)).path, 'utf8');
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain('<path d="M'); // the dots, as vector paths
  expect(svg).toContain('Time (s)');
});

test('a run with a power cut asked for during it: the exported config schedules the cut and the CLI gives the same CSV', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ssdlab-export-cut-'));
  await openApp(page, `?seconds=100&seed=5&${SMALL_S3700}`);
  await page.getByTestId('start').click();
  await untilSecond(page, 4);
  await page.getByTestId('pause').click();
  await page.getByTestId('cut-power').click();
  await expect(page.getByTestId('power-outcome')).toContainText('the outcome follows');
  await page.getByTestId('pause').click(); // resume
  await untilAttribute(page, page.getByTestId('engine-state'), 'data-state', 'finished');
  await expect(page.getByTestId('power-cuts').locator('tbody tr')).toHaveCount(1);

  const csv = await save(page, 'export-csv', dir);
  const json = await save(page, 'export-json', dir);
  const config = JSON.parse(readFileSync(json.path, 'utf8'));
  expect(config.power_cuts_s).toHaveLength(1);
  expect(config.power_cuts_s[0]).toBeGreaterThan(4);
  expect(readFileSync(csv.path, 'utf8')).toBe(cliCsv(json.path, 70, dir));
  // The config schedules the cut where the page made it.
  await expect(page.getByTestId('power-outcome')).toContainText(`Power cut at ${config.power_cuts_s[0].toFixed(3)} s`);
});
