/** An answer given by throwing: the error handler replies `statusCode` with `{"error": message}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
