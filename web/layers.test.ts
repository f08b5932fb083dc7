// The page's layers (ARCHITECTURE.md, "The page's layers"): every file under web/src belongs to
// one layer, and a file imports only from its own layer or lower ones, so a module never depends
// on what is built on top of it. Folders in one layer may import each other (settings/ and labs/
// share link parsing). A new folder or top-level file must be placed here before its test passes.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Lowest first. A folder is named with its slash, a top-level file without its extension. */
const LAYERS: readonly { name: string; holds: readonly string[] }[] = [
  // Formatting of numbers and the colour theme: used everywhere, import nothing of the page.
  { name: 'ground', holds: ['format', 'theme'] },
  // Column and inside-the-drive stores, derived columns, what a chart can show: pure data.
  { name: 'data', holds: ['data/'] },
  // The engine's worker protocol, the workers, their clients and the run sets that fill the stores.
  { name: 'engine', holds: ['engine/'] },
  // Options, links and words: run settings, scenarios, explanations, files, labs.
  { name: 'options', holds: ['settings/', 'scenarios/', 'explain/', 'files/', 'labs/'] },
  // What a page shows and does, without React (issue 18).
  { name: 'store', holds: ['store/'] },
  // React hooks over the layers below.
  { name: 'hooks', holds: ['hooks/'] },
  // Drawing: scales, canvas and SVG, the time and x-y charts.
  { name: 'charts', holds: ['charts/'] },
  { name: 'components', holds: ['components/'] },
  { name: 'views', holds: ['views/'] },
  // The two pages: the app (its parts in app/) and the embed, with their entry points and style sheets.
  { name: 'layouts', holds: ['App', 'app/', 'main', 'offline', 'styles.css', 'embed/'] },
];

const SRC = join(dirname(fileURLToPath(import.meta.url)), 'src');

/** Generated wasm glue: the engine's own output, not the page's code. */
const GENERATED = /^engine\/pkg(-full)?\//;

/** The layer index of a path relative to web/src, or -1 when no layer holds it. */
function layerOf(path: string): number {
  const slash = path.indexOf('/');
  const key = slash < 0 ? path.replace(/(\.test)?\.(tsx?|js)$/, '') : path.slice(0, slash + 1);
  return LAYERS.findIndex((l) => l.holds.includes(key));
}

/** Every module specifier a source imports: static, type-only, re-exports and `import()`. */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** One sentence per import of `file` (relative to web/src) that looks up a layer or leaves the map. */
function offences(file: string, source: string): string[] {
  const own = layerOf(file);
  if (own < 0) return [`${file} is in no layer: place it in LAYERS (web/layers.test.ts)`];
  const out: string[] = [];
  for (const spec of importsOf(source)) {
    if (!spec.startsWith('.')) continue; // packages (react, d3) are below every layer
    const target = posix.normalize(posix.join(posix.dirname(file), spec));
    if (target.startsWith('../')) continue; // outside web/src (none today)
    const theirs = layerOf(target);
    if (theirs < 0) out.push(`${file} imports '${spec}', which is in no layer: place ${target} in LAYERS`);
    else if (theirs > own) {
      out.push(
        `${file} (layer ${own} ${LAYERS[own].name}) imports '${spec}' (layer ${theirs} ${LAYERS[theirs].name}): ` +
          'a file may import only from its own layer or lower ones',
      );
    }
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    const rel = relative(SRC, path).split('\\').join('/');
    if (e.isDirectory()) return GENERATED.test(rel + '/') ? [] : sources(path);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe('the page imports only downward', () => {
  it('reads every kind of import', () => {
    const source = [
      "import a from '../a';",
      "import type { B } from './b';",
      "export * from './c';",
      "export { d } from '../d';",
      "const e = import('../e');",
      'type F = typeof import("../f");',
      "import './g.css';",
    ].join('\n');
    expect(importsOf(source)).toEqual(['../a', './b', './c', '../d', '../e', '../f', './g.css']);
  });

  it('places store/ above options and below hooks even before it exists', () => {
    expect(layerOf('store/runs.ts')).toBeGreaterThan(layerOf('settings/urlState.ts'));
    expect(layerOf('store/runs.ts')).toBeLessThan(layerOf('hooks/useRuns.ts'));
  });

  it('names the file, the import and both layers of an upward import', () => {
    expect(offences('settings/x.ts', "import { METRICS } from '../components/ComparisonChart';")).toEqual([
      "settings/x.ts (layer 3 options) imports '../components/ComparisonChart' (layer 7 components): " +
        'a file may import only from its own layer or lower ones',
    ]);
    expect(offences('engine/runs.ts', "const s = import('../store/runs');")).toHaveLength(1);
    expect(offences('labs/schema.ts', "import { DEFAULTS } from '../settings/pageDefaults';")).toEqual([]);
    expect(offences('nowhere/x.ts', '')).toEqual(['nowhere/x.ts is in no layer: place it in LAYERS (web/layers.test.ts)']);
  });

  it('holds for every file under web/src', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => offences(f, readFileSync(join(SRC, f), 'utf8')))).toEqual([]);
  });
});

/** Issue 18: a file over this many lines holds more than one concern; split it by concern. */
const MAX_LINES = 400;

/** `file (N lines)` for each file under web/src longer than MAX_LINES. */
function tooLong(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((f) => {
    const lines = read(f).split('\n').length - 1;
    return lines > MAX_LINES ? [`${f} (${lines} lines)`] : [];
  });
}

describe('the page keeps its files short', () => {
  it('names each file over the limit with its count', () => {
    const text = (n: number) => 'x\n'.repeat(n);
    expect(tooLong(['a.ts', 'b.ts'], (f) => text(f === 'a.ts' ? MAX_LINES : MAX_LINES + 1))).toEqual([`b.ts (${MAX_LINES + 1} lines)`]);
  });

  it(`holds every file under web/src to ${MAX_LINES} lines`, () => {
    expect(tooLong(sources(SRC), (f) => readFileSync(join(SRC, f), 'utf8'))).toEqual([]);
  });
});
