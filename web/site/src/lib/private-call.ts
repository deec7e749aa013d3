import { ApiError } from '../api/client.js';

/**
 * What a private-API call came to, in the states its pages put into words:
 * the companion counts each run against a signed-in account with a monthly
 * quota (frontend contract §§4, 9, 10).
 */
export type PrivateOutcome<T> =
  | { kind: 'ok'; data: T }
  | { kind: 'signIn' }
  | { kind: 'invalidToken' }
  | { kind: 'quota' }
  | { kind: 'failed'; error: ApiError };

/** The ApiError's kind for a status, as the site's other pages name it. */
function failure(status: number, detail: string): ApiError {
  if (status === 0) return new ApiError('network', 0, '');
  if (status === 400) return new ApiError('invalid', status, detail);
  if (status === 403) return new ApiError('forbidden', status, detail);
  if (status === 429) return new ApiError('rateLimited', status, detail);
  if (status === 503) return new ApiError('unavailable', status, detail);
  return new ApiError(status >= 500 ? 'upstream' : 'other', status, detail);
}

function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : '';
  } catch {
    return '';
  }
}

/**
 * Reads a private route's answer. The markers are the contract's: `quota_exceeded` anywhere in a 429,
 * `Invalid token` for a token the companion refused, and a 401, or a 403 that says `Sign in required`,
 * for a visitor it does not know. A 403 without either is the Referer gate's.
 */
export async function readPrivate<T>(response: Response): Promise<PrivateOutcome<T>> {
  const text = await response.text().catch(() => '');
  if (response.ok) {
    try {
      return { kind: 'ok', data: JSON.parse(text) as T };
    } catch {
      // A success whose body is not JSON is a broken answer of the source behind the route.
      return { kind: 'failed', error: failure(502, '') };
    }
  }
  if (response.status === 429 && text.includes('quota_exceeded')) return { kind: 'quota' };
  if (response.status === 401 || response.status === 403) {
    if (text.includes('Invalid token')) return { kind: 'invalidToken' };
    if (response.status === 401 || text.includes('Sign in required')) return { kind: 'signIn' };
  }
  return { kind: 'failed', error: failure(response.status, errorText(text)) };
}

/** A private call: the visitor's sign-in headers added, a lost connection read as a failure. */
export async function callPrivate<T>(
  fetcher: typeof fetch,
  path: string,
  auth: Record<string, string>,
  init: RequestInit = {},
): Promise<PrivateOutcome<T>> {
  let response: Response;
  try {
    response = await fetcher(path, { ...init, headers: { accept: 'application/json', ...init.headers, ...auth } });
  } catch {
    return { kind: 'failed', error: failure(0, '') };
  }
  return readPrivate<T>(response);
}

/** Whether a poll should stop asking: every outcome but a passing failure. */
export const settled = (outcome: PrivateOutcome<unknown>): boolean => outcome.kind !== 'failed';
