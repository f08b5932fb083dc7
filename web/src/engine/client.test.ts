import { describe, expect, it } from 'vitest';
import { EngineClient } from './client';
import type { WorkerToPage } from './protocol';
import { fakeWorkers } from './fakeWorker';

function setup() {
  const { workers, make } = fakeWorkers();
  const client = new EngineClient(make);
  const heard: WorkerToPage[] = [];
  client.subscribe((m) => heard.push(m));
  return { client, workers, heard };
}

describe('EngineClient', () => {
  it('sends commands and tracks state from the worker', () => {
    const { client, workers, heard } = setup();
    expect(client.state).toBe('loading');
    workers[0].say({ type: 'ready', presets: [], workloads: [], request_fields: {}, fields: ['second'] });
    workers[0].say({ type: 'state', state: 'idle' });
    expect(client.state).toBe('idle');
    expect(client.fields).toEqual(['second']);
    const config = { drive: 's3700-200', workload: 'consistency', seconds: 60, span: 1, seed: 1 };
    client.start(config);
    client.pause();
    client.resume();
    client.reset();
    expect(workers[0].sent).toEqual([{ type: 'start', config }, { type: 'pause' }, { type: 'resume' }, { type: 'reset' }]);
    expect(heard.map((m) => m.type)).toEqual(['ready', 'state']);
  });

  it('matches each check to its answer, and answers pending checks when the worker is replaced', async () => {
    const { client, workers, heard } = setup();
    const config = { drive: 's3700-200', workload: 'consistency', seconds: 60, span: 1, seed: 1 };
    const first = client.check({ ...config, span: 2 });
    const second = client.check(config);
    const [a, b] = workers[0].sent as unknown as { id: number }[];
    expect(a.id).not.toBe(b.id);
    workers[0].say({ type: 'checked', id: b.id, problem: null });
    workers[0].say({ type: 'checked', id: a.id, problem: { field: 'span', message: 'too big' } });
    expect(await first).toEqual({ field: 'span', message: 'too big' });
    expect(await second).toBeNull();
    expect(heard).toEqual([]); // answers go to the caller, not to every listener

    const pending = client.check(config);
    workers[0].onerror?.({ message: 'boom', preventDefault() {} } as ErrorEvent);
    client.reset();
    expect(await pending).toBeNull();
  });

  it('turns a malformed message into a readable error', () => {
    const { workers, heard } = setup();
    workers[0].say({ type: 'samples', fields: ['a'], n: 2, buffer: new ArrayBuffer(8) });
    expect(heard).toEqual([{ type: 'error', message: 'The engine sent a malformed message.', recoverable: true }]);
  });

  it('after a worker failure, reset starts a fresh worker', () => {
    const { client, workers, heard } = setup();
    workers[0].onerror?.({ message: 'boom', preventDefault() {} } as ErrorEvent);
    expect(client.state).toBe('error');
    expect(heard.at(-1)).toEqual({ type: 'error', message: 'The engine worker failed: boom', recoverable: false });
    client.reset();
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(client.state).toBe('loading');
    workers[0].say({ type: 'state', state: 'idle' }); // the old worker is no longer heard
    expect(client.state).toBe('loading');
    workers[1].say({ type: 'state', state: 'idle' });
    expect(client.state).toBe('idle');
  });

  it('sends a run’s share of a core when it changes, and again to a worker started after a failure', () => {
    const { client, workers } = setup();
    client.setShare(1); // what a new worker has already
    client.setShare(0.5);
    client.setShare(0.5);
    expect(workers[0].sent).toEqual([{ type: 'share', share: 0.5 }]);
    workers[0].onerror?.({ message: 'boom', preventDefault() {} } as ErrorEvent);
    client.reset();
    expect(workers[1].sent).toEqual([{ type: 'share', share: 0.5 }]);
  });
});
