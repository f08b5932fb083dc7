import { expect, test } from '@playwright/test';
import { SMALL_S3700, allRunsDone, openApp, readNumber, runToEnd } from './helpers';

// The workload editor: mix, order, sizes, threads, skew and rate as options; a fio job file or a
// block trace pasted in, with the engine's report by line; bad lines named, settings kept.

test('mix, order, size mix, threads, skew and rate shape the run; a bad size mix is named', async ({ page }) => {
  await openApp(page, `?seconds=6&${SMALL_S3700}`);
  const section = page.getByTestId('section-workload');
  await section.getByTestId('mix-select').selectOption('mixed');
  await expect(page.getByTestId('read_pct-input')).toHaveValue('70');
  await page.getByTestId('read_pct-input').fill('30');
  await section.getByTestId('order-select').selectOption('partly');
  await expect(page.getByTestId('random_pct-input')).toHaveValue('50');
  await page.getByTestId('bssplit-input').fill('4k/50:64k/50');
  await page.getByTestId('threads-input').fill('2');
  await section.getByTestId('skew-zipf').check({ force: true });
  await expect(page.getByTestId('zipf-input')).toHaveValue('1.2');
  await page.getByTestId('rate-input').fill('5000');
  await expect.poll(() => page.url()).toContain('rate=5000');
  for (const kv of ['mix=mixed', 'read_pct=30', 'order=partly', 'bssplit=4k%2F50%3A64k%2F50', 'threads=2', 'skew=zipf'])
    expect(page.url()).toContain(kv);
  await runToEnd(page);
  // Two threads at 5000 IO/s each: 10,000 IOPS a second at most.
  const iops = await readNumber(page, 'readout-iops');
  expect(iops).toBeGreaterThan(9_000);
  expect(iops).toBeLessThanOrEqual(10_000);

  await page.getByTestId('bssplit-input').fill('4k/50:64x/50');
  await expect(page.getByTestId('option-bssplit')).toContainText('Size mix (bssplit): ');
  await expect(page.getByTestId('start')).toBeDisabled();
  await expect(page.getByTestId('readout-time')).toHaveText('6 s of 6');
  await page.getByTestId('bssplit-input').fill('');
  await expect(page.getByTestId('start')).toBeEnabled();
});

const JOB = `[global]
ioengine=libaio
direct=1
verify=md5
runtime=3
time_based

[writer]
rw=randwrite
bs=4k
iodepth=16
`;

test('a fio job file: the report names what is honoured, ignored and not honoured by line, and it runs', async ({ page }) => {
  await openApp(page, `?seconds=60&${SMALL_S3700}`);
  const input = page.getByTestId('workload-file-input');
  await input.fill(JOB);
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('fio job file pasted: 1 phase, runs 3 s');
  await expect(page.getByTestId('import-honoured')).toContainText('writer: 0% reads, 100% random, sizes 4096/1, queue depth 16');
  await expect(page.getByTestId('import-ignored')).toContainText('line 2: ioengine=libaio');
  await expect(page.getByTestId('import-unsupported')).toContainText('line 4: verify=md5');
  // The job file sets queue depth and sizes: those options wait.
  for (const id of ['qd', 'skew', 'mix', 'order', 'threads', 'bssplit']) await expect(page.getByTestId(`option-${id}`)).toHaveCount(0);
  await expect(page.getByTestId('workload-select')).toHaveCount(0);
  await page.getByTestId('start').click();
  await allRunsDone(page, 1);
  await expect(page.getByTestId('readout-time')).toHaveText('3 s of 3');
  await expect(page.getByTestId('run-1')).toContainText('fio job pasted');

  // A line the engine cannot read is named; the file that read stays in effect.
  await input.fill(JOB.replace('bs=4k', 'bs=4x'));
  await expect(page.getByTestId('workload-file-error')).toContainText('fio job file: line 10: bs=4x');
  await expect(page.getByTestId('workload-file')).toContainText('Still in effect: pasted');
  await expect(page.getByTestId('readout-time')).toHaveText('3 s of 3');
  await expect(page.getByTestId('start')).toBeEnabled();
  await page.getByTestId('workload-file-remove').click();
  await expect(page.getByTestId('option-qd')).toBeVisible();
});

test('a fio job file chosen with the file it includes: without it the include line is named; with it its options count; chosen again beside a file nothing includes, that file is said unread and the job keeps its own length', async ({ page }) => {
  await openApp(page, `?seconds=60&${SMALL_S3700}`);
  const job = { name: 'job.fio', mimeType: 'text/plain', buffer: Buffer.from('[global]\ninclude common.fio\n\n[randw]\nrw=randwrite\nbs=4k\niodepth=8\nruntime=3\ntime_based=1\n') };
  const common = { name: 'common.fio', mimeType: 'text/plain', buffer: Buffer.from('ioengine=libaio\ndirect=1\n') };
  const pick = page.getByTestId('workload-file-pick');
  await pick.setInputFiles([job]);
  await expect(page.getByTestId('workload-file-error')).toContainText("line 2: include common.fio: the job file includes 'common.fio', which was not given");
  await pick.setInputFiles([job, common]);
  await expect(page.getByTestId('workload-file-includes')).toHaveText('With the files it includes: common.fio');
  await expect(page.getByTestId('workload-file-error')).toHaveCount(0);
  await expect(page.getByTestId('import-report')).toContainText('fio job file job.fio: 1 phase, runs 3 s');
  await expect(page.getByTestId('import-ignored')).toContainText('ioengine=libaio (common.fio line 1)');
  // A file chosen with the job that no include line names is said to be unread.
  const extra = { name: 'extra.fio', mimeType: 'text/plain', buffer: Buffer.from('iodepth=64\n') };
  await pick.setInputFiles([job, common, extra]);
  await expect(page.getByTestId('import-notes')).toContainText('extra.fio given with the job file, but no include line names it: not read');
  await expect(page.getByTestId('import-honoured')).toContainText('queue depth 8');
  await page.getByTestId('start').click();
  await allRunsDone(page, 1);
  await expect(page.getByTestId('readout-time')).toHaveText('3 s of 3');
});

const TRACE = `fio version 3 iolog
# written by fio
10 /dev/sdb add
20 /dev/sdb open
100 /dev/sdb write 0 4096
1100 /dev/sdb read 4096 8192
2100 /dev/sdb read 0 4096
3100 /dev/sdb trim 0 4096
`;

test('a block trace: its summary, and a bad line named with its number', async ({ page }) => {
  await openApp(page, `?seconds=60&${SMALL_S3700}`);
  const input = page.getByTestId('workload-file-input');
  await input.fill(TRACE);
  await expect(page.getByTestId('import-report')).toContainText('Block trace pasted (fio-v3): 4 commands');
  await expect(page.getByTestId('import-report')).toContainText('skipped 1 header lines, 1 comment lines, 2 file add/open/close lines');
  await page.getByTestId('start').click();
  // The run ends with the trace: its last command at 3.1 ms, so one second.
  await allRunsDone(page, 1);
  await expect(page.getByTestId('readout-time')).toHaveText('1 s of 60');
  await expect(page.getByTestId('run-1')).toContainText('trace pasted');
  await input.fill(TRACE.replace('1100 /dev/sdb read', '1100 /dev/sdb reed'));
  await expect(page.getByTestId('workload-file-error')).toContainText('Trace: line 6: expected an action read');
  await expect(page.getByTestId('start')).toBeEnabled();
});

test('a read-only run writes no host data: its write amplification is not a number', async ({ page }) => {
  await openApp(page, `?${SMALL_S3700}&workload=random-read&seconds=3`);
  await runToEnd(page);
  expect(await readNumber(page, 'readout-iops')).toBeGreaterThan(0);
  await expect(page.getByTestId('readout-wa')).toHaveText('–');
});
