// The one way the site talks to the API: every answer becomes data or an
// ApiError whose kind the pages turn into words a visitor understands.

export type ErrorKind =
  | 'network' // no answer at all
  | 'invalid' // 400: the guard's message says what is wrong
  | 'forbidden' // 403: the Referer gate does not know this site's hostname
  | 'notFound' // 404
  | 'rateLimited' // 429 from the limiter, retry after `retryAfter` seconds
  | 'quota' // 429 with quota_exceeded from the companion API
  | 'unavailable' // 503: a database not loaded, a feature not configured
  | 'upstream' // 5xx: the source behind the API failed
  | 'other';

export class ApiError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly status: number,
    /** The API's own error string, when it sent one. */
    readonly detail: string,
    /** Seconds until a retry may succeed (429 only). */
    readonly retryAfter: number | null = null,
  ) {
    super(detail || `HTTP ${status}`);
  }
}

function retryAfterSeconds(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function kindOf(status: number, text: string): ErrorKind {
  if (status === 400) return 'invalid';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 429) return text.includes('quota_exceeded') ? 'quota' : 'rateLimited';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'upstream';
  return 'other';
}

export async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let detail = '';
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; code?: unknown };
    const message = body.error ?? body.message;
    detail = typeof message === 'string' ? message : '';
  } catch {
    detail = '';
  }
  return new ApiError(
    kindOf(response.status, text),
    response.status,
    detail,
    retryAfterSeconds(response.headers.get('retry-after')),
  );
}

async function send(path: string, init: RequestInit | undefined, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(path, { ...init, signal, headers: { accept: 'application/json', ...init?.headers } });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError('network', 0, '');
  }
}

/**
 * GET a JSON answer of the API; a non-2xx becomes an ApiError. `fresh` asks
 * past the browser's cache (a visitor's "Refresh" of a cacheable answer).
 */
export async function getJson<T>(path: string, signal?: AbortSignal, fresh = false): Promise<T> {
  const response = await send(path, fresh ? { cache: 'no-cache' } : undefined, signal);
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}

/** POST a JSON body; a non-2xx becomes an ApiError. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await send(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}

/** Builds `/api/<route>?…` with the parameters encoded. */
export function apiPath(route: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `/api/${route}${query ? `?${query}` : ''}`;
}
