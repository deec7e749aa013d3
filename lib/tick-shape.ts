import { executionAsyncResource } from 'node:async_hooks';

// Reachable for the life of the process: that is the whole point.
const kept: object[] = [];

/**
 * Keeps one `process.nextTick` queue entry reachable for the life of the process.
 *
 * Node 20 builds each entry as an object literal with two symbol keys. Hidden
 * classes are held weakly, so a full garbage collection that finds no entry
 * alive drops the literal's; the next entry gets new ones, and from then on
 * every nextTick (Node's HTTP and stream code calls it about six times per
 * request) defines those keys through V8's runtime instead of inline code.
 * That cost 10 µs of a 110 µs `/api/configs` request (docs/performance.md). One
 * entry kept alive keeps its hidden classes, and the fast path. Resolves with
 * the entry kept.
 */
export function keepTickObjectShape(): Promise<object> {
  return new Promise((resolve) => {
    process.nextTick(() => {
      const entry = executionAsyncResource();
      kept.push(entry);
      resolve(entry);
    });
  });
}
