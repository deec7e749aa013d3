import { expectedFailure } from './expected-failure.js';
import { UpstreamError } from './upstream.js';

/** An answer given by throwing: the error handler replies `statusCode` with `{"error": message}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The spec's answer, with 502, when an upstream failed or said something unusable. */
export const UPSTREAM_ERROR = 'Upstream error';

/** The spec's answer, with 502, when an upstream could not be reached at all. */
export const UPSTREAM_FETCH_FAILED = 'Upstream fetch failed';

/** The contract's answer, with 504, where a route tells a timeout apart from other failures (asn-history). */
const UPSTREAM_TIMEOUT = 'Upstream timeout';

/** The one answer, with 500, to an error nobody expected (a bug): its own text and stack stay in the log. */
export const INTERNAL_ERROR = 'Internal server error';

/** What identifies a failure in its log line: the cause as `err`, a status, the query; URLs through redactUrl(). */
export type LogFields = Record<string, unknown>;

/**
 * An upstream failed a request. The error handler answers `statusCode` with
 * `{"error": message}` and logs one warning, `logMessage` with `logFields`:
 * the route throws and logs nothing itself.
 */
export class UpstreamFailure extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    readonly logMessage: string,
    readonly logFields: LogFields = {},
  ) {
    super(statusCode, message);
  }
}

/** 502 `Upstream error`: the upstream answered, but with an error status or nothing the route can use. */
export class UpstreamFailed extends UpstreamFailure {
  constructor(logMessage: string, logFields?: LogFields) {
    super(502, UPSTREAM_ERROR, logMessage, logFields);
  }
}

/** 502 `Upstream fetch failed`: no answer came (a refused or dropped connection, a timeout). */
export class UpstreamUnreachable extends UpstreamFailure {
  constructor(logMessage: string, logFields?: LogFields) {
    super(502, UPSTREAM_FETCH_FAILED, logMessage, logFields);
  }
}

/** 504 `Upstream timeout`: no answer within the upstream timeout, on a route that says so apart. */
export class UpstreamTimeout extends UpstreamFailure {
  constructor(logMessage: string, logFields?: LogFields) {
    super(504, UPSTREAM_TIMEOUT, logMessage, logFields);
  }
}

/** 500 with the upstream failure's own message: the spec's answer on the geo routes (and repo-stars'). */
class UpstreamFailedWithReason extends UpstreamFailure {
  constructor(cause: Error, logMessage: string) {
    super(500, cause.message, logMessage, { err: cause });
  }
}

/** True for the timeout of an upstream call, the only abort of one (lib/upstream.ts). */
export const isTimeout = (err: unknown) => err instanceof Error && err.name === 'AbortError';

/**
 * A failed upstream call as an answer: UpstreamFailed when it answered
 * something unusable, UpstreamUnreachable when no answer came. Anything else
 * (a missing key, a bug) is returned as it is.
 */
export function upstreamFailure(err: unknown, logMessage: string, logFields: LogFields = {}): unknown {
  if (err instanceof UpstreamError) return new UpstreamFailed(logMessage, { err, ...logFields });
  if (expectedFailure(err) !== undefined) return new UpstreamUnreachable(logMessage, { err, ...logFields });
  return err;
}

/** For `.catch()`: an upstream's failure is rethrown as UpstreamFailedWithReason, anything else as it is. */
export const withUpstreamReason =
  (logMessage: string) =>
  (err: unknown): never => {
    throw err instanceof Error && expectedFailure(err) !== undefined
      ? new UpstreamFailedWithReason(err, logMessage)
      : err;
  };
