import type { FastifyRequest } from 'fastify';
import type { Config } from '../fastify.config.js';
import { forwardableHeaders, type CallOptions, type Upstream, type UpstreamJson } from './upstream.js';
import { HttpError } from './http-error.js';

export const API_KEY_MISSING = 'API key is missing';

/** Answered as 500 `{"error":"API key is missing"}` by the error handler. */
export class ApiKeyMissing extends HttpError {
  constructor() {
    super(500, API_KEY_MISSING);
  }
}

export interface ForwardOptions {
  query?: Record<string, string | undefined>;
  method?: CallOptions['method'];
  body?: string;
  /** Caller headers not to pass on, beyond the hop-by-hop ones. */
  dropHeaders?: readonly string[];
  headers?: Record<string, string>;
}

/**
 * The site's private companion API (PRIVATE_API_ENDPOINT, key PRIVATE_API_KEY
 * sent as query `key`). Routes that use it forward the caller's own headers,
 * Authorization and Accept-Language included, as the spec asks.
 */
export class PrivateApi {
  constructor(
    private readonly upstream: Upstream,
    private readonly config: Pick<Config, 'PRIVATE_API_KEY' | 'PRIVATE_API_ENDPOINT'>,
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

  /** Calls `path` with the caller's headers; the status and JSON body come back as they are. */
  async forward(request: FastifyRequest, path: string, options: ForwardOptions = {}): Promise<UpstreamJson<unknown>> {
    this.assertConfigured();
    return this.upstream.json(this.url(path, options.query), {
      method: options.method ?? 'GET',
      headers: { ...forwardableHeaders(request.headers, options.dropHeaders), ...options.headers },
      body: options.body,
    });
  }
}
