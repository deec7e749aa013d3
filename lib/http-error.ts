/** An answer given by throwing: the error handler replies `statusCode` with `{"error": message}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The one answer, with 500, to an error nobody expected (a bug): its own text and stack stay in the log. */
export const INTERNAL_ERROR = 'Internal server error';
