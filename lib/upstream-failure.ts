import { HttpError } from './http-error.js';
import { ServiceStopping } from './lifecycle.js';

/** The spec's answer, with 502, when an upstream failed or said something unusable. */
export const UPSTREAM_ERROR = 'Upstream error';

/** The spec's answer, with 502, when an upstream could not be reached at all. */
export const UPSTREAM_FETCH_FAILED = 'Upstream fetch failed';

/** The contract's answer, with 504, where a route tells a timeout apart from other failures (asn-history). */
const UPSTREAM_TIMEOUT = 'Upstream timeout';

/** What identifies a failure in its log line: the cause as `err`, a status, the query; URLs through redactUrl(). */
export type LogFields = Record<string, unknown>;

/**
 * An upstream answered, but not with what the caller can use: thrown by the
 * upstream client and the datasets as the cause of a failure. Its name is
 * the `type` of every such cause in the log.
 */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/**
 * How an upstream failed a request, and so what the visitor is answered:
 * - `unusable`: it answered, but with an error status or nothing the route can use: 502 `Upstream error`;
 * - `unreachable`: no answer came (a refused or dropped connection, a timeout): 502 `Upstream fetch failed`;
 * - `timeout`: no answer within the upstream timeout, on a route that says so apart: 504 `Upstream timeout`;
 * - `route`: a status and string of the route's own (the geo routes' 500 with the failure's message, a store's 503).
 */
export type UpstreamFailureKind = 'unusable' | 'unreachable' | 'timeout' | 'route';

/** The status and `error` string a `route` failure is answered with. */
export interface RouteAnswer {
  status: number;
  error: string;
}

const SPEC_ANSWERS: Record<Exclude<UpstreamFailureKind, 'route'>, RouteAnswer> = {
  unusable: { status: 502, error: UPSTREAM_ERROR },
  unreachable: { status: 502, error: UPSTREAM_FETCH_FAILED },
  timeout: { status: 504, error: UPSTREAM_TIMEOUT },
};

/**
 * An upstream failed a request. The error handler answers with the kind's
 * status and `{"error": string}` and logs one warning, `logMessage` with
 * `logFields`, through request.logUpstreamFailure(): the route throws and
 * logs nothing itself.
 */
export class UpstreamFailure extends HttpError {
  readonly kind: UpstreamFailureKind;

  constructor(
    how: Exclude<UpstreamFailureKind, 'route'> | RouteAnswer,
    readonly logMessage: string,
    readonly logFields: LogFields = {},
  ) {
    const answer = typeof how === 'string' ? SPEC_ANSWERS[how] : how;
    super(answer.status, answer.error);
    this.kind = typeof how === 'string' ? how : 'route';
  }

  /**
   * A failed upstream call as an answer: `unusable` when it answered
   * something unusable, `unreachable` when no answer came. Anything else
   * (a missing key, a bug) is returned as it is.
   */
  static of(err: unknown, logMessage: string, logFields: LogFields = {}): unknown {
    if (err instanceof UpstreamError) return new UpstreamFailure('unusable', logMessage, { err, ...logFields });
    return expectedFailure(err) === undefined
      ? err
      : new UpstreamFailure('unreachable', logMessage, { err, ...logFields });
  }

  /** For `.catch()`: an upstream's failure is rethrown as a 500 with its own message, anything else as it is. */
  static withReason =
    (logMessage: string) =>
    (err: unknown): never => {
      throw err instanceof Error && expectedFailure(err) !== undefined
        ? new UpstreamFailure({ status: 500, error: err.message }, logMessage, { err })
        : err;
    };
}

/** True for the timeout of an upstream call, the only abort of one (lib/upstream.ts). */
export const isTimeout = (err: unknown) => err instanceof Error && err.name === 'AbortError';

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

/** Where an unexpected failure is logged as a bug: the step that met it, and the fields that say which. */
export interface UnexpectedIn {
  log: { error(fields: object, message: string): void };
  step: string;
  fields?: LogFields;
}

/**
 * The one-line reason for a failure the service expects to meet (no network,
 * an upstream that refuses, times out or answers with an error status), or
 * undefined for anything else: a bug or a surprise, which is logged with its
 * stack. With `unexpected`, such a bug is logged here, as an error of its
 * step, so the caller's own line (what runs degraded, when it is tried
 * again) is for expected failures only.
 */
export function expectedFailure(err: unknown, unexpected?: UnexpectedIn): string | undefined {
  const reason = reasonOf(err);
  if (reason === undefined && unexpected) {
    unexpected.log.error({ ...unexpected.fields, err }, `${unexpected.step} failed unexpectedly`);
  }
  return reason;
}

function reasonOf(err: unknown): string | undefined {
  if (err instanceof UpstreamError) return err.message;
  if (!(err instanceof Error)) return undefined;
  // Shutdown aborts with its own reason; any other abort of an outbound call is Upstream's timeout.
  if (err instanceof ServiceStopping) return err.message;
  if (err.name === 'AbortError') return err.cause instanceof ServiceStopping ? err.cause.message : 'timed out';
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR_'))) return err.message;
  return err.cause === undefined ? undefined : reasonOf(err.cause);
}
