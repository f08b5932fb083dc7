// Selectors that keep their last answer while their inputs are the same, so React's memoized
// parts (the chart, the panels) see the same objects between a run's seconds.

/** Keeps the last answer while the arguments are the same objects. */
export function memo<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: { args: A; result: R } | null = null;
  return (...args: A) => {
    if (last && last.args.length === args.length && last.args.every((a, i) => Object.is(a, args[i]))) return last.result;
    const result = fn(...args);
    last = { args, result };
    return result;
  };
}

/** Keeps the last answer while `key` is the same. */
export function keyed<R>(): (key: string, make: () => R) => R {
  let last: { key: string; result: R } | null = null;
  return (key, make) => {
    if (last?.key !== key) last = { key, result: make() };
    return last.result;
  };
}
