import { describe, expect, it } from 'vitest';
import { ExperimentSet } from './experiments';
import { fakeWorkers } from './fakeWorker';

const REQUEST = { experiment: 'whole-drive-fill', drive: '870qvo-1000' };

function setup() {
  const { workers, make } = fakeWorkers();
  const set = new ExperimentSet(make);
  return { set, workers };
}

describe('ExperimentSet', () => {
  it('loads a worker with the checker, and the first start takes it with what it said while waiting', () => {
    const { set, workers } = setup();
    void set.check(REQUEST);
    expect(workers).toHaveLength(2); // the checker and the spare
    const spare = workers[1];
    spare.say({ type: 'state', state: 'idle' }); // loaded before anyone listened
    set.start(1, REQUEST);
    expect(workers).toHaveLength(2); // no worker to load at Start
    expect(spare.sent).toEqual([{ type: 'start', request: REQUEST }]);
    expect(set.snapshot().entries.get(1)).toMatchObject({ state: 'idle', starting: true });
    spare.say({ type: 'state', state: 'running' });
    expect(set.snapshot().entries.get(1)?.state).toBe('running');
    // The next experiment (another run's) gets a worker of its own.
    set.start(2, REQUEST);
    expect(workers).toHaveLength(3);
    expect(workers[2].sent).toEqual([{ type: 'start', request: REQUEST }]);
    set.dispose();
    expect(workers.every((w) => w.terminated)).toBe(true);
  });

  it('replaces a spare that failed to load', () => {
    const { set, workers } = setup();
    void set.check(REQUEST);
    workers[1].onerror?.({ message: 'no wasm' } as ErrorEvent);
    set.start(1, REQUEST);
    expect(workers[1].terminated).toBe(true);
    expect(workers).toHaveLength(3);
    expect(workers[2].sent).toEqual([{ type: 'start', request: REQUEST }]);
    expect(set.snapshot().entries.get(1)?.error).toBeNull();
  });
});
