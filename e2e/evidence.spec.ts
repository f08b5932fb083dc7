import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { axeViolations, openApp, runToEnd, SMALL_S3700, untilExperimentFinished } from './helpers';

// The published figures on the chart: a run made under an article's conditions shows the
// article's figures over the seconds they were measured on, with this run's verdict; a run under
// other conditions says which differ. The figures and the verdicts come from the engine
// (calibration.toml through the wasm evidence()), the same data `ssdlab calibrate` checks.
test('the S3700’s published steady band and its verdict; a half-span run is not comparable', async ({ page }) => {
  // The article's run: the full-size S3700 200GB, 2000 s, the whole span.
  await openApp(page, '?seconds=2000');
  await runToEnd(page);
  await page.getByTestId('view-steady-linear').click();
  const chart = page.getByTestId('iops-chart');
  await expect(chart).toHaveAttribute('data-view', 'steady-linear');
  const band = chart.getByTestId('figure-mark').first();
  await expect(band).toHaveAttribute('data-lo', '29150');
  await expect(band).toHaveAttribute('data-hi', '34865');
  await expect(band).toContainText('published 29,150–34,865');
  // The article's dip period, not a level: its words over the same window.
  await expect(chart.getByTestId('figure-note')).toHaveText('published: a dip roughly every 150 s');

  const evidence = page.getByTestId('evidence');
  // This run's slowest and fastest seconds from 1400 s, within the published band or not: the
  // model's own numbers, whatever they are.
  const verdict = evidence.getByTestId('band-verdict');
  await expect(verdict).toHaveText(
    /^Seconds 1,400–2,000 of this run: [\d,]+ to [\d,]+ IOPS, (inside|outside) the published band of 29,150 to 34,865 \(AnandTech's review of the Intel SSD DC S3700 200GB \(2012\)\)\.$/,
  );
  const [lo, hi] = ((await verdict.textContent())!.match(/run: ([\d,]+) to ([\d,]+)/) ?? [])
    .slice(1)
    .map((v) => Number(v.replace(/,/g, '')));
  expect(lo).toBeLessThanOrEqual(hi);
  expect((await verdict.textContent())!.includes('inside')).toBe(lo >= 29150 && hi <= 34865);
  // Every figure of the article's run has a verdict; the calibrated model holds them all.
  const figures = evidence.getByTestId('evidence-figure');
  expect(await figures.count()).toBeGreaterThanOrEqual(3);
  for (const f of await figures.all()) await expect(f).toHaveAttribute('data-holds', 'true');
  await expect(figures.filter({ hasText: 'slowest second' })).toContainText(/this run: [\d,]+ IOPS, within the target/);
  expect(await axeViolations(page)).toEqual([]);

  // "How close is the model": every figure of the last calibration (the file docs/CALIBRATION.md's
  // table is printed from), this run's value beside the S3700's figures it was made for.
  const saved = JSON.parse(readFileSync('public/calibration.json', 'utf8')) as { held: number; outcomes: { drive: string }[] };
  await evidence.getByTestId('evidence-how-close').click();
  const howClose = page.getByTestId('how-close');
  await expect(howClose).toBeVisible();
  await expect(howClose.getByTestId('how-close-summary')).toContainText(
    `${saved.held.toLocaleString('en-US')} of ${saved.outcomes.length.toLocaleString('en-US')} published figures hold`,
  );
  await expect(howClose.getByTestId('how-close-row')).toHaveCount(saved.outcomes.length);
  const s3700Rows = saved.outcomes.filter((o) => o.drive === 's3700-200').length;
  await expect(howClose.locator('[data-testid=how-close-row][data-drive=s3700-200]')).toHaveCount(s3700Rows);
  // Only this run's drive, only its comparable figures, each with its value and verdict.
  const thisRun = howClose.getByTestId('how-close-this-run');
  await expect(thisRun).toHaveCount(await figures.count());
  for (const cell of await thisRun.all()) await expect(cell).toContainText('✓ holds');
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(howClose).toHaveCount(0);

  // Half the span tested, a short run: other conditions, named, and nothing drawn.
  await page.locator('label', { has: page.getByTestId('span-0.5') }).click();
  await page.getByTestId('seconds-input').fill('20');
  await runToEnd(page);
  await expect(chart).toHaveAttribute('data-figures', '0');
  await expect(evidence.getByTestId('evidence-figure')).toHaveCount(0);
  await evidence.getByTestId('evidence-other').locator('summary').click();
  await expect(evidence.getByTestId('evidence-not-comparable').filter({ hasText: 'slowest second' })).toContainText(
    "Spare area: the figure's run tests 100 % of the drive, this one tests 50 % of the drive; duration: the figure's run lasts 2000 s, this one lasts 20 s.",
  );
});

// A queue-depth sweep's published points: a figure whose run is one of the sweep's measured
// points (the S3700's 4 KB random reads at QD1 and QD8 [003]) is marked at its queue depth on the
// charts, with the verdict of that point's row; a sweep of a changed design compares with none.
test('a QD sweep marks the published points at their queue depths with their rows’ verdicts; a changed design is not comparable', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'ssdlab-figures-'));
  await openApp(page, '?experiment=four-corners&drive=s3700-200&exp_seconds=3&exp_ramp=1&exp_qd=1,8&exp_pre=fill&exp_plot=iops');
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  const chart = page.getByTestId('exp-chart-bandwidth');
  const markers = chart.locator('.xy-figure');
  await expect(markers).toHaveCount(2);

  // The rows the figures sit at, as the engine wrote them (the table's CSV).
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(/^exp-csv-/).click()]);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const iopsAt = (qd: number) => Number(lines.find((l) => l.startsWith(`random-read,${qd},`))!.split(',')[2]);
  const published = { 1: 6600, 8: 58400 } as const;

  const evidence = page.getByTestId('evidence');
  const figures = evidence.getByTestId('evidence-figure');
  await expect(figures).toHaveCount(2);
  for (const [qd, target] of Object.entries(published)) {
    const iops = iopsAt(Number(qd));
    const holds = Math.abs(iops - target) <= 0.15 * target;
    const figure = figures.filter({ hasText: `4 KB random read QD${qd}:` });
    await expect(figure).toHaveAttribute('data-holds', String(holds));
    await expect(figure).toContainText(
      `this experiment, 4 KB random read at QD ${qd}: ${Math.round(iops).toLocaleString('en-US')} IOPS, ${holds ? 'within' : 'outside'} the target`,
    );
    // The marker: at the queue depth of the random-read line's point, in that line's colour.
    const marker = markers.filter({ hasText: `4 KB random read QD${qd},` });
    await expect(marker).toHaveAttribute('data-holds', String(holds));
    await expect(marker.locator('title')).toContainText(`${target.toLocaleString('en-US')} IOPS`);
    const line = chart.locator('g.series[data-series$="-random-read"]');
    const point = line.locator('circle').nth(qd === '1' ? 0 : 1);
    const [mx] = (await marker.getAttribute('d'))!.slice(1).split(',').map(Number);
    expect(Math.abs(mx - Number(await point.getAttribute('cx')))).toBeLessThan(0.5);
    expect(await marker.getAttribute('stroke')).toBe(await line.locator('path').first().getAttribute('stroke'));
  }
  // As MB/s, the same figures at their request size: 6,600 IOPS x 4 KiB = 27 MB/s.
  await page.getByTestId('exp-plot-mb_s').click();
  await expect(markers.filter({ hasText: 'QD1,' }).locator('title')).toContainText('(27 MB/s at 4 KiB)');
  // The drive's other figures say why no row compares with them.
  await evidence.getByTestId('evidence-other').locator('summary').click();
  await expect(evidence.getByTestId('evidence-not-comparable').filter({ hasText: 'slowest second' })).toContainText(
    "not comparable with this experiment. Method: the figure is measured from a run's seconds",
  );
  expect(await axeViolations(page)).toEqual([]);

  // The same sweep on a design of its own: no marker, and the reason.
  await openApp(page, `?experiment=four-corners&exp_seconds=2&exp_ramp=1&exp_qd=1,8&exp_pre=fill&exp_plot=iops&${SMALL_S3700}`);
  await page.getByTestId('exp-start').click();
  await untilExperimentFinished(page);
  await expect(page.getByTestId('exp-chart-bandwidth').locator('g.series')).toHaveCount(4);
  await expect(page.getByTestId('exp-chart-bandwidth').locator('.xy-figure')).toHaveCount(0);
  await expect(evidence.getByTestId('evidence-figure')).toHaveCount(0);
  await evidence.getByTestId('evidence-other').locator('summary').click();
  await expect(evidence.getByTestId('evidence-not-comparable').filter({ hasText: '4 KB random read QD8' })).toContainText(
    "Design: the figure's run uses the preset as it is, this experiment changes its ",
  );
});
