import { expectedFailure } from '../lib/expected-failure.js';

interface ErrorLogger {
  error(fields: object, message: string): void;
}

/**
 * The one reading of a dataset step's failure (a download, a refresh, an
 * update check). An expected failure (no network, an upstream that refuses,
 * times out or answers badly) gives its reason, for the step's own one-line
 * warning that says what runs degraded and when it is tried again. Anything
 * else is a bug: logged here as an error with its stack, and undefined.
 */
export function failureReason(
  logger: ErrorLogger,
  err: unknown,
  step: string,
  fields: Record<string, unknown> = {},
): string | undefined {
  const reason = expectedFailure(err);
  if (reason === undefined) logger.error({ ...fields, err }, `${step} failed unexpectedly`);
  return reason;
}
