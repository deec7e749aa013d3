import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../fastify.config.js';
import type { CallOptions, HeaderMap, Upstream, UpstreamJson } from './upstream.js';
import { clientIp } from './client-ip.js';
import { HttpError } from './http-error.js';
import type { SignInTokens } from './sign-in-tokens.js';
import { UpstreamError, UPSTREAM_ERROR, UpstreamFailure } from './upstream-failure.js';

export const API_KEY_MISSING = 'API key is missing';
/** The metrics' name for the private API, whose host (PRIVATE_API_ENDPOINT) is the operator's to keep. */
const PRIVATE_API_PROVIDER = 'private-api';

const NOT_JSON_ANSWER = JSON.stringify({ error: UPSTREAM_ERROR });

/** Answered as 500 `{"error":"API key is missing"}` by the error handler. */
export class ApiKeyMissing extends HttpError {
  constructor() {
    super(500, API_KEY_MISSING);
  }
}

/** What a private route answers: the upstream status and its JSON body, as text so no response schema filters it. */
export interface Relayed {
  status: number;
  /** The parsed body, for a route that looks into it (a 429's text); undefined when it was not JSON. */
  data: unknown;
  /** The JSON text sent as the answer. */
  json: string;
}

export interface ForwardOptions {
  query?: Record<string, string | undefined>;
  method?: CallOptions['method'];
  body?: string;
  /** Headers of ours, such as the Content-Type of `body`; they win over the caller's. */
  headers?: Record<string, string>;
}

// The caller's headers the private API gets, and no others (routes/private-tools/README.md,
// "What the private API receives"): who the caller is (Authorization) and what
// their browser says of itself (User-Agent, its client hints, Accept-Language),
// which a profile lookup or a persona check can use. An allow-list, so a header
// describing a hop, a proxy in front of us (Forwarded, X-Forwarded-Host, CF-*),
// a body we rewrote (Content-Length, Content-Encoding) or a request undici
// refuses (Expect) can never be passed on by being forgotten.
const CALLER_HEADERS = [
  'authorization',
  'accept-language',
  'user-agent',
  'sec-ch-ua',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
] as const;

/** The names the caller's Connection header lists: they belong to that hop alone (RFC 9110 §7.6.1). */
function connectionOptions(connection: string | undefined): Set<string> {
  return new Set((connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
}

/**
 * What a private API call carries of the caller's request: the allowed headers
 * (less any the Connection header names), `X-Forwarded-For` holding only the
 * address we resolved for the caller, never the list the caller sent, and our
 * own `Accept`, since the answer is read as JSON whatever the caller accepts.
 */
export function privateApiHeaders(headers: IncomingHttpHeaders, callerIp: string): HeaderMap {
  const hopOnly = connectionOptions(headers.connection);
  const out: HeaderMap = { accept: 'application/json' };
  for (const name of CALLER_HEADERS) {
    if (headers[name] !== undefined && !hopOnly.has(name)) out[name] = headers[name];
  }
  if (callerIp) out['x-forwarded-for'] = callerIp;
  return out;
}

/**
 * The site's private companion API (PRIVATE_API_ENDPOINT, key PRIVATE_API_KEY
 * sent as query `key`). Routes that use it pass on the caller's headers the
 * spec names (Authorization, Accept-Language, User-Agent) through privateApiHeaders,
 * once `tokens` has accepted the caller's sign-in token: a forged or stale one
 * never reaches the companion, so it spends none of its quota.
 */
export class PrivateApi {
  constructor(
    private readonly upstream: Upstream,
    private readonly config: Pick<Config, 'PRIVATE_API_KEY' | 'PRIVATE_API_ENDPOINT'>,
    private readonly tokens: SignInTokens,
  ) {}

  get configured(): boolean {
    return Boolean(this.config.PRIVATE_API_KEY && this.config.PRIVATE_API_ENDPOINT);
  }

  /** Throws ApiKeyMissing unless both settings are present. */
  assertConfigured(): void {
    if (!this.configured) throw new ApiKeyMissing();
  }

  url(path: string, query: Record<string, string | undefined> = {}): string {
    const params = new URLSearchParams({ key: this.config.PRIVATE_API_KEY });
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
    return `${this.config.PRIVATE_API_ENDPOINT}${path}?${params}`;
  }

  /**
   * Throws unless the call may go out: ApiKeyMissing, then the sign-in check's
   * 401 or 503 (SignInTokens.check), before any upstream is asked.
   */
  private async assertCallable(request: FastifyRequest): Promise<void> {
    this.assertConfigured();
    await this.tokens.check(request.headers.authorization);
  }

  /** Calls `path` with privateApiHeaders of the caller's request; the status and JSON body come back as they are. */
  async forward(request: FastifyRequest, path: string, options: ForwardOptions = {}): Promise<UpstreamJson<unknown>> {
    await this.assertCallable(request);
    return this.call(request, path, options);
  }

  private call(request: FastifyRequest, path: string, options: ForwardOptions): Promise<UpstreamJson<unknown>> {
    return this.upstream.json(this.url(path, options.query), {
      method: options.method ?? 'GET',
      headers: { ...privateApiHeaders(request.headers, clientIp(request)), ...options.headers },
      body: options.body,
      provider: PRIVATE_API_PROVIDER,
    });
  }

  /**
   * The one reading of a private API call for every route that passes it on
   * (routes/private-tools/README.md, "Failures"): the status and JSON body as they
   * came, whatever their shape, since the page is the one that copes with an
   * odd body. No answer at all is 502 Upstream fetch failed; an error status
   * whose body is not JSON keeps its status with {"error":"Upstream error"},
   * logged once; a 2xx whose body is not JSON is 502 Upstream error.
   */
  async relay(request: FastifyRequest, path: string, options: ForwardOptions = {}): Promise<Relayed> {
    await this.assertCallable(request);
    try {
      const { status, data } = await this.call(request, path, options);
      return { status, data, json: JSON.stringify(data) };
    } catch (err) {
      if (!(err instanceof UpstreamError && err.status !== undefined && err.status >= 400)) {
        throw UpstreamFailure.of(err, 'private API call failed', { path });
      }
      request.logUpstreamFailure({ err: err.message, status: err.status, path }, 'private API call failed');
      return { status: err.status, data: undefined, json: NOT_JSON_ANSWER };
    }
  }
}
