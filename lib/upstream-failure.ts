import { UpstreamError } from './upstream.js';
import { ServiceStopping } from './lifecycle.js';

// The system errors of a network that is down, filtered or slow: a machine
// without internet, a firewall, an upstream that is away.
const NETWORK_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'EPIPE',
]);

/**
 * The one-line reason for a failure the service expects to meet (no network,
 * an upstream that refuses, times out or answers with an error status), or
 * undefined for anything else: a bug or a surprise, which is logged with its
 * stack.
 */
export function expectedFailure(err: unknown): string | undefined {
  if (err instanceof UpstreamError) return err.message;
  if (!(err instanceof Error)) return undefined;
  // Shutdown aborts with its own reason; any other abort of an outbound call is Upstream's timeout.
  if (err instanceof ServiceStopping) return err.message;
  if (err.name === 'AbortError') return err.cause instanceof ServiceStopping ? err.cause.message : 'timed out';
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR_'))) return err.message;
  return err.cause === undefined ? undefined : expectedFailure(err.cause);
}
