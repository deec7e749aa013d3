import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error.js';

// A second of event-loop delay means every request already waits that long;
// answering 503 at once lets the backlog drain instead of growing.
export const MAX_EVENT_LOOP_DELAY_MS = 1000;
// Near V8's heap limit the process would die of an out-of-memory error; refusing
// new work while it is there gives the collector a chance.
const MAX_HEAP_SHARE = 0.9;
export const RETRY_AFTER_S = 10;
const SAMPLE_INTERVAL_MS = 1000;
// The delay monitor's own timer period, which every sample includes.
const RESOLUTION_MS = 10;

/** Refused because the process is overwhelmed; an expected answer, so the error handler does not log it. */
export class Overloaded extends HttpError {
  constructor() {
    super(503, 'Service Unavailable');
  }
}

/**
 * Sheds load when the process is overwhelmed: 503 with Retry-After, before any
 * body is read or upstream called. Its samples open no file, so a full
 * descriptor table cannot make it throw (docs/decisions/0002).
 */
export default fp(
  async (app) => {
    const maxHeapUsedBytes = Math.floor(getHeapStatistics().heap_size_limit * MAX_HEAP_SHARE);
    const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    delay.enable();
    let overloaded = false;
    const sampler = setInterval(() => {
      // No sample at all means the loop never turned in the whole interval.
      const delayMs = Number.isNaN(delay.mean) ? Infinity : delay.mean / 1e6 - RESOLUTION_MS;
      delay.reset();
      overloaded = delayMs > MAX_EVENT_LOOP_DELAY_MS || getHeapStatistics().used_heap_size > maxHeapUsedBytes;
    }, SAMPLE_INTERVAL_MS);
    sampler.unref();
    app.addHook('onClose', async () => {
      clearInterval(sampler);
      delay.disable();
    });
    app.addHook('onRequest', async (_request, reply) => {
      if (!overloaded) return;
      reply.header('retry-after', RETRY_AFTER_S);
      throw new Overloaded();
    });
  },
  { name: 'load-shedding' },
);
