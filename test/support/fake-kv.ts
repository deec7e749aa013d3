import type { ServerResponse } from 'node:http';
import type { FakeUpstream, Recorded } from './fake-upstream.js';
import { fixture } from './fake-upstream.js';

const HOST = 'api.cloudflare.com';
const MIN_TTL_SECONDS = 60;
const ANSWERS = {
  stored: fixture(HOST, 'kv-put-success.json'),
  notFound: fixture(HOST, 'kv-key-not-found.json'),
  authError: fixture(HOST, 'kv-auth-error.json'),
  ttlTooSmall: fixture(HOST, 'kv-ttl-too-small.json'),
};

export interface FakeKvOptions {
  accountId: string;
  namespaceId: string;
  token: string;
  /** The store's clock; tests move it forward to expire keys. */
  now?: () => number;
  /** Most entries kept; the least recently used go first (the benchmark writes without end). */
  capacity?: number;
}

interface Entry {
  value: string;
  metadata: string | null;
  expiresAt: number;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Cloudflare Workers KV's REST values API, inside a FakeUpstream: PUT as
 * multipart (`value`, `metadata`) with `expiration_ttl`, GET of the raw value,
 * 404 for unknown and expired keys, Bearer token checked. `down` makes every
 * call answer 500, as during an outage.
 */
export class FakeKv {
  readonly entries = new Map<string, Entry>();
  down = false;
  private readonly now: () => number;

  constructor(
    fake: FakeUpstream,
    private readonly options: FakeKvOptions,
  ) {
    this.now = options.now ?? Date.now;
    const values = new RegExp(
      `^/client/v4/accounts/${options.accountId}/storage/kv/namespaces/${options.namespaceId}/values/([^/]+)$`,
    );
    fake.on('PUT', HOST, values, (req, res) => this.put(values, req, res));
    fake.on('GET', HOST, values, (req, res) => this.get(values, req, res));
  }

  /** Seeds a value as if PUT with `ttlSeconds`. */
  set(key: string, value: string, ttlSeconds: number, metadata: string | null = null): void {
    this.store(key, { value, metadata, expiresAt: this.now() + ttlSeconds * 1000 });
  }

  private authorised(req: Recorded, res: ServerResponse): boolean {
    if (this.down) {
      send(res, 500, {
        success: false,
        errors: [{ code: 10001, message: 'service unavailable' }],
        messages: [],
        result: null,
      });
      return false;
    }
    if (req.headers.authorization !== `Bearer ${this.options.token}`) {
      send(res, 403, ANSWERS.authError);
      return false;
    }
    return true;
  }

  private async put(pattern: RegExp, req: Recorded, res: ServerResponse): Promise<void> {
    if (!this.authorised(req, res)) return;
    const key = decodeURIComponent(pattern.exec(req.path)![1]!);
    const ttl = Number(req.query.get('expiration_ttl'));
    if (!Number.isInteger(ttl) || ttl < MIN_TTL_SECONDS) {
      send(res, 400, ANSWERS.ttlTooSmall);
      return;
    }
    let form: FormData;
    try {
      form = await new Request('http://kv.invalid/', {
        method: 'PUT',
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body: new Uint8Array(req.body),
      }).formData();
    } catch {
      send(res, 400, {
        success: false,
        errors: [{ code: 10026, message: 'could not parse request body' }],
        messages: [],
        result: null,
      });
      return;
    }
    const value = form.get('value');
    const metadata = form.get('metadata');
    if (typeof value !== 'string') {
      send(res, 400, {
        success: false,
        errors: [{ code: 10026, message: 'missing value' }],
        messages: [],
        result: null,
      });
      return;
    }
    this.store(key, {
      value,
      metadata: typeof metadata === 'string' ? metadata : null,
      expiresAt: this.now() + ttl * 1000,
    });
    send(res, 200, ANSWERS.stored);
  }

  private get(pattern: RegExp, req: Recorded, res: ServerResponse): void {
    if (!this.authorised(req, res)) return;
    const key = decodeURIComponent(pattern.exec(req.path)![1]!);
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      send(res, 404, ANSWERS.notFound);
      return;
    }
    // A read refreshes the entry's place, so a capacity keeps the ones in use.
    this.entries.delete(key);
    this.entries.set(key, entry);
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(entry.value);
  }

  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    const capacity = this.options.capacity ?? Infinity;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= capacity) break;
      this.entries.delete(oldest);
    }
  }
}
