import { describe, expect, it } from 'vitest';
import type { DrivePreset } from '../engine/protocol';
import { DEFAULTS } from '../settings/pageDefaults';
import {
  applyConfig,
  checkOrigin,
  embedHeight,
  embedSearch,
  embedSnippet,
  EMBED_DEFAULTS,
  parseEmbed,
  type EmbedEngine,
} from './embedState';

const preset = (id: string): DrivePreset => ({
  id,
  name: id,
  interface: 'SATA',
  raw_bytes: 256e9,
  user_bytes: 200e9,
  advertised_bytes: 200e9,
  spec_random_write_iops: 36000,
  parameters: {},
});
const ENGINE: EmbedEngine = {
  presets: [preset('s3700-200'), preset('p400e-400')],
  workloads: [{ id: 'consistency', description: '', block_bytes: 4096, queue_depth: 32, read_percent: 0 }],
  requestFields: { power_cuts_s: [] },
  experiments: [],
};

describe('embed URL', () => {
  it('reads the run keys with the page parser and the embed keys beside them', () => {
    const { setup, errors } = parseEmbed(
      '?drive=p400e-400&span=0.8&seconds=600&view=steady-log&controls=locked&show=chart,explain&theme=dark&autoplay=on&origin=https://blog.example&origin=http://127.0.0.1:4191&id=left',
    );
    expect(errors).toEqual([]);
    expect(setup.settings).toMatchObject({ drive: 'p400e-400', span: 0.8, seconds: 600, view: 'steady-log' });
    expect(setup.options).toEqual({
      controls: 'locked',
      show: ['chart', 'explain'],
      theme: 'dark',
      autoplay: true,
      origins: ['https://blog.example', 'http://127.0.0.1:4191'],
      id: 'left',
    });
    // And back: the same setup, as the page's own keys.
    expect(parseEmbed(embedSearch(setup)).setup).toEqual(setup);
  });

  it('names every bad key with what it accepts, and applies the rest', () => {
    const { setup, errors } = parseEmbed(
      '?drive=p400e-400&span=3&controls=maybe&show=chart,movie&theme=blue&autoplay=yes&origin=*&id=a%20b&colour=red',
    );
    expect(setup.settings.drive).toBe('p400e-400');
    expect(setup.settings.span).toBe(1);
    expect(setup.options).toEqual({ ...EMBED_DEFAULTS, show: ['chart'] });
    expect(errors).toEqual([
      'span: must be a number from 0.01 to 1 (got "3")',
      expect.stringMatching(/^colour: unknown setting \(known: .*controls, show, theme, autoplay, origin, id, set\.PATH\)$/),
      'controls: must be one of shown, locked, hidden (got "maybe")',
      'theme: must be one of system, light, dark (got "blue")',
      'autoplay: must be one of on, off (got "yes")',
      'show: unknown part "movie" (known: setup, chart, stats, explain, evidence, panels, inside, latency)',
      'origin: must be a web origin like https://blog.example (scheme, host and optional port; * is not accepted) (got "*")',
      'id: must be 1 to 64 letters, digits, - or _ (got "a b")',
    ]);
  });

  it('accepts only bare web origins', () => {
    expect(checkOrigin('https://blog.example')).toBeNull();
    expect(checkOrigin('https://blog.example/')).toBeNull();
    expect(checkOrigin('http://127.0.0.1:4191')).toBeNull();
    for (const bad of ['*', 'blog.example', 'https://blog.example/posts', 'javascript:alert(1)', 'file:///tmp', 'null']) {
      expect(checkOrigin(bad)).toMatch(/^origin: must be a web origin/);
    }
  });
});

describe('config messages', () => {
  const base = parseEmbed('?drive=s3700-200&seconds=600&autoplay=on&origin=https://blog.example').setup;

  it('merge URL keys over the setup', () => {
    const { setup, errors } = applyConfig(base, { drive: 'p400e-400', span: 0.75, theme: 'dark', cuts: [100, 200] }, ENGINE);
    expect(errors).toEqual([]);
    expect(setup.settings).toMatchObject({ drive: 'p400e-400', span: 0.75, seconds: 600 });
    expect(setup.settings.design.cuts).toEqual([100, 200]);
    expect(setup.options).toMatchObject({ theme: 'dark', autoplay: true, origins: ['https://blog.example'] });
    // null puts a key back to its default.
    expect(applyConfig(setup, { span: null }, ENGINE).setup.settings.span).toBe(DEFAULTS.span);
  });

  it('apply whole or not at all, naming each bad key', () => {
    const { setup, errors } = applyConfig(base, { span: 0.75, drive: 'x25-m', seconds: -5 }, ENGINE);
    expect(setup).toBe(base);
    expect(errors).toEqual([
      'seconds: must be a whole number from 1 to 86,400 (got "-5")',
      'drive: unknown drive "x25-m" (known: s3700-200, p400e-400)',
    ]);
  });

  it('cannot change who may talk to the embed', () => {
    const { setup, errors } = applyConfig(base, { origin: 'https://evil.example', id: 'x' }, ENGINE);
    expect(setup).toBe(base);
    expect(errors).toEqual(["origin: can only be set in the embed's URL", "id: can only be set in the embed's URL"]);
  });
});

describe('embed snippet', () => {
  it('is an iframe beside the app, with a title, lazy loading and a height for its parts', () => {
    const { setup } = parseEmbed('?drive=p400e-400&controls=locked&origin=https://blog.example');
    const html = embedSnippet('https://ssdlab.example/tools/?drive=p400e-400', setup, 'SSD Lab: "P400e" IOPS');
    expect(html).toContain(
      'src="https://ssdlab.example/tools/embed.html?drive=p400e-400&amp;controls=locked&amp;origin=https%3A%2F%2Fblog.example"',
    );
    expect(html).toContain('title="SSD Lab: &quot;P400e&quot; IOPS"');
    expect(html).toContain('loading="lazy"');
    expect(html).toContain(`height="${embedHeight(setup.options)}"`);
    expect(embedHeight({ ...setup.options, show: ['chart', 'stats', 'panels'] })).toBeGreaterThan(embedHeight(setup.options));
  });
});
