import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '../../lib/logger.js';
import { TooManyRequests, type LimitCheck } from '../../plugins/rate-limit.js';
import type { Answer } from './answer.js';
import { sendAnswer } from './send-answer.js';

/** The face's own answers for a request the global limiter stops. */
export interface Refusals {
  tooMany: () => Answer;
  failed: () => Answer;
}

/**
 * Counts a face request against the global limiter and, when it is refused,
 * answers it in the face's form: the 429 with the limiter's Retry-After, or
 * a 500 when the check itself failed. The reply is hijacked either way (the
 * face writes its answers raw); true when the request may go on.
 */
export async function underLimit(
  globalLimit: LimitCheck | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  refusals: Refusals,
): Promise<boolean> {
  try {
    await globalLimit?.(request, reply);
    reply.hijack();
    return true;
  } catch (err) {
    reply.hijack();
    if (!(err instanceof TooManyRequests)) {
      request.log.error({ err, url: redactUrl(request.url) }, 'request failed');
      sendAnswer(reply.raw, refusals.failed());
      return false;
    }
    // The limiter's Retry-After, set on the reply, goes out with the raw answer.
    const retryAfter = reply.getHeader('retry-after');
    if (retryAfter !== undefined) reply.raw.setHeader('retry-after', retryAfter);
    sendAnswer(reply.raw, refusals.tooMany());
    return false;
  }
}
