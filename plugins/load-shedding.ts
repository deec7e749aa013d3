import { getHeapStatistics } from 'node:v8';
import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import { HttpError } from '../lib/http-error.js';

// A second of event-loop delay means every request already waits that long;
// answering 503 at once lets the backlog drain instead of growing.
export const MAX_EVENT_LOOP_DELAY_MS = 1000;
// Near V8's heap limit the process would die of an out-of-memory error; refusing
// new work while it is there gives the collector a chance.
const MAX_HEAP_SHARE = 0.9;
export const RETRY_AFTER_S = 10;

/** Refused because the process is overwhelmed; an expected answer, so the error handler does not log it. */
export class Overloaded extends HttpError {
  constructor() {
    super(503, 'Service Unavailable');
  }
}

/** Sheds load when the process is overwhelmed: 503 with Retry-After, before any body is read or upstream called. */
export default fp(
  async (app) => {
    await app.register(underPressure, {
      maxEventLoopDelay: MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * MAX_HEAP_SHARE),
      retryAfter: RETRY_AFTER_S,
      customError: Overloaded,
    });
  },
  { name: 'load-shedding' },
);
