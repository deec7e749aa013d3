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
