// Every lab shipped in public/labs: it reads without a problem, the index lists exactly these
// files, every step's runs and experiment are accepted by the real engine (the wasm build, as
// the page runs it), and every checkpoint reads a column the engine produces.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DERIVED_FIELDS } from '../data/derived';
import type { ExperimentInfo } from '../engine/experimentProtocol';
import type { DrivePreset, WorkloadInfo } from '../engine/protocol';
import { experimentRequest, parseExperiment } from '../settings/experimentState';
import { DEFAULTS, VOCABULARY } from '../settings/pageDefaults';
import { buildRequest } from '../settings/request';
import { checkAgainstEngine, parseSettings } from '../settings/urlState';
import { parseLab, parseLabIndex, type Check, type Lab, type PredictCheck, type Quantity } from './schema';

const here = dirname(fileURLToPath(import.meta.url));
const labsDir = resolve(here, '../../../public/labs');
const files = readdirSync(labsDir).filter((f) => f.endsWith('.json') && f !== 'index.json');
const read = (file: string): unknown => JSON.parse(readFileSync(join(labsDir, file), 'utf8'));

type Wasm = typeof import('../engine/pkg-full/ssdlab_full.js');
let wasm: Wasm;
let presets: DrivePreset[];
let workloads: WorkloadInfo[];
let requestFields: Record<string, unknown>;
let sampleFields: string[];
let experiments: ExperimentInfo[];

beforeAll(async () => {
  wasm = await import('../engine/pkg-full/ssdlab_full.js');
  wasm.initSync({ module: readFileSync(resolve(here, '../engine/pkg-full/ssdlab_full_bg.wasm')) });
  presets = JSON.parse(wasm.presets());
  workloads = JSON.parse(wasm.workloads());
  requestFields = JSON.parse(wasm.run_request_fields());
  sampleFields = JSON.parse(wasm.sample_fields());
  experiments = JSON.parse(wasm.experiments());
});

/** The lab as its seeds draw it: a seeded lab with each of 24 seeds (every set of values they give, once). */
function labsOf(file: string): Lab[] {
  const drawn = new Map<string, Lab>();
  for (let seed = 0; seed < 24; seed++) {
    const parsed = parseLab(read(file), file.replace(/\.json$/, ''), seed);
    if (parsed.errors) throw new Error(`${file} (seed ${seed}): ${parsed.errors.join('; ')}`);
    drawn.set(JSON.stringify(parsed.lab.parameters), parsed.lab);
  }
  return [...drawn.values()];
}

function quantities(check: Check | PredictCheck): Quantity[] {
  if (check.kind === 'predict') return 'answer' in check ? [check.answer] : check.among;
  if (check.kind !== 'compare') return [];
  return [check.left, ...(typeof check.right === 'number' ? [] : [check.right])];
}

describe('the labs in public/labs', () => {
  it('are at least six, and the index lists exactly them', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
    const index = parseLabIndex(read('index.json'));
    expect(index.errors).toEqual([]);
    expect([...index.ids].sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')).sort());
  });

  it.each(files)('%s reads without a problem', (file) => {
    expect(parseLab(read(file), file.replace(/\.json$/, '')).errors).toBeUndefined();
  });

  it.each(files)('%s: every step’s runs and experiment are accepted by the engine', (file) => {
    for (const lab of labsOf(file))
      for (const [i, step] of lab.steps.entries()) {
        const where = `${file}${lab.seed === null ? '' : ` (${JSON.stringify(lab.parameters)})`} step ${i + 1}`;
        const exp = parseExperiment(step.setup.page);
        expect(exp.errors, where).toEqual([]);
        const info = experiments.find((e) => e.id === exp.settings.id) ?? null;
        if (exp.settings.id !== null) expect(info, `${where}: experiment ${exp.settings.id}`).not.toBeNull();
        for (const [r, query] of step.setup.runs.entries()) {
          const parsed = parseSettings(`${query}&${step.setup.page}`, DEFAULTS, VOCABULARY);
          expect(parsed.errors, `${where} run ${r + 1}`).toEqual([]);
          const checked = checkAgainstEngine(parsed.settings, DEFAULTS, { presets, workloads, requestFields });
          expect(checked.errors, `${where} run ${r + 1}`).toEqual([]);
          const preset = presets.find((p) => p.id === checked.settings.drive)!;
          const request = buildRequest(checked.settings, { parameters: preset.parameters, requestFields });
          expect(JSON.parse(wasm.check_request(JSON.stringify(request))), `${where} run ${r + 1}`).toEqual({ ok: true });
          if (info) new wasm.Experiment(JSON.stringify(experimentRequest(exp.settings, info, request))).free();
        }
      }
  });

  it.each(files)('%s: every checkpoint reads a column the engine produces', (file) => {
    for (const step of labsOf(file).flatMap((lab) => lab.steps)) {
      const exp = experiments.find((e) => e.id === parseExperiment(step.setup.page).settings.id);
      for (const c of step.checkpoints) {
        const where = `${file} ${c.id}`;
        if (c.check.kind === 'steady') expect([...sampleFields, ...DERIVED_FIELDS], where).toContain(c.check.field);
        for (const q of quantities(c.check)) {
          if (q.of === 'seconds' || q.of === 'fall') expect([...sampleFields, ...DERIVED_FIELDS], where).toContain(q.field);
          if (q.of === 'table') {
            expect(exp, `${where}: a table needs the step to run an experiment`).toBeDefined();
            for (const column of [q.field, ...Object.keys(q.where)]) expect(exp!.columns, where).toContain(column);
          }
        }
      }
    }
  });
});
