import type { Config } from '../../fastify.config.js';
import type { Upstream } from '../../lib/upstream.js';
import { UpstreamError } from '../../lib/upstream-failure.js';
import { isExpired, StoreError, type ReportStore, type StoredReport } from './store.js';

/** A store answer that is not a success, as the expected failure it is; its `errors` say why (a wrong token, say). */
function refusal(status: number, errors?: unknown): UpstreamError {
  const why = errors === undefined ? '' : `: ${JSON.stringify(errors)}`;
  return new UpstreamError(`Report store answered ${status}${why}`, status);
}

interface KvResult {
  success?: unknown;
  errors?: unknown;
}

/**
 * Cloudflare Workers KV through its REST API (Bearer RADAR_API_KEY with KV
 * edit rights), REPORT_STORE=kv. Keys expire on their own after `expiration_ttl` seconds.
 */
export class KvReportStore implements ReportStore {
  /** Each call goes to the store itself; an outage is met request by request. */
  readonly ready = true;
  readonly readable = true;
  private readonly base: string;

  constructor(
    private readonly upstream: Upstream,
    private readonly config: Pick<Config, 'RADAR_API_KEY' | 'KV_ACCOUNT_ID' | 'KV_NAMESPACE_ID'>,
  ) {
    const account = encodeURIComponent(config.KV_ACCOUNT_ID);
    const namespace = encodeURIComponent(config.KV_NAMESPACE_ID);
    this.base = `https://api.cloudflare.com/client/v4/accounts/${account}/storage/kv/namespaces/${namespace}/values/`;
  }

  async put(id: string, stored: StoredReport, ttlSeconds: number): Promise<void> {
    const form = new FormData();
    form.set('value', JSON.stringify(stored));
    form.set('metadata', JSON.stringify({ expiresAt: stored.expiresAt }));
    // Response encodes the form as multipart/form-data, boundary included.
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    let result: { status: number; data: KvResult };
    try {
      result = await this.upstream.json<KvResult>(`${this.base}${id}?expiration_ttl=${ttlSeconds}`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${this.config.RADAR_API_KEY}`,
          'content-type': encoded.headers.get('content-type') ?? '',
        },
        body,
      });
    } catch (err) {
      throw new StoreError(err);
    }
    if (result.status < 200 || result.status >= 300 || result.data?.success !== true) {
      throw new StoreError(refusal(result.status, result.data?.errors));
    }
  }

  async get(id: string, now: number = Date.now()): Promise<StoredReport | undefined> {
    let res: { status: number; text: string };
    try {
      res = await this.upstream.text(`${this.base}${id}`, {
        headers: { authorization: `Bearer ${this.config.RADAR_API_KEY}` },
      });
    } catch (err) {
      throw new StoreError(err);
    }
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new StoreError(refusal(res.status));
    let stored: StoredReport;
    try {
      stored = JSON.parse(res.text) as StoredReport;
    } catch {
      throw new StoreError(new UpstreamError('Report store answered a value that is not JSON', res.status));
    }
    // KV drops expired keys lazily at the edge; the stored expiry is the promise made to the sharer.
    return isExpired(stored, now) ? undefined : stored;
  }

  async delete(id: string): Promise<void> {
    let res: { status: number; data: KvResult };
    try {
      res = await this.upstream.json<KvResult>(`${this.base}${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${this.config.RADAR_API_KEY}` },
      });
    } catch (err) {
      throw new StoreError(err);
    }
    // KV answers success for a key it never held, so an unknown id is no failure.
    if (res.status < 200 || res.status >= 300 || res.data?.success !== true) {
      throw new StoreError(refusal(res.status, res.data?.errors));
    }
  }
}
