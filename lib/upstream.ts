import { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import type { Logger } from 'pino';
import { PRODUCT_NAME, PRODUCT_VERSION } from './app-root.js';
import { redactUrl } from './logger.js';
import { DESCRIPTORS } from './descriptor-budget.js';
import { NameResolver, SYSTEM_NAMES } from './network/name-resolver.js';
import type { UpstreamOutcome } from '../operations/metrics.js';
import { SharedLookups } from './shared-lookups.js';
import { UpstreamError } from './upstream-failure.js';

export interface UpstreamSettings {
  timeoutMs: number;
  siteUrl: string;
  /** When set, `https://HOST/PATH?Q` is fetched from `ORIGIN/HOST/PATH?Q` instead (tests, offline demo). */
  overrideOrigin: string;
  dispatcher?: Dispatcher;
  /** `host:port` of the DNS server that resolves upstream names (DNS_OVERRIDE_SERVER); the system's when empty. */
  dnsServer?: string;
  /** Resolves this client's names in place of one made for `dnsServer`: another client's, shared. */
  names?: NameResolver;
  /** How this client's own pool resolves a name when it connects (`names.lookup` unless given): a check made there holds for every connection. */
  connectLookup?: LookupFunction;
  logger?: Logger;
  /** Told of every call's end: its provider (CallOptions), how it ended, seconds to the answer headers (the metrics). */
  observe?: (provider: string, outcome: UpstreamOutcome, seconds: number) => void;
  /** How long a failed shared call (CallOptions.keepForMs) is remembered; default 30 s. */
  failureMemoryMs?: number;
}

export type HeaderMap = Record<string, string | string[] | undefined>;

export interface CallOptions {
  method?: Dispatcher.HttpMethod;
  headers?: HeaderMap;
  body?: string | Buffer | Uint8Array | Readable | null;
  timeoutMs?: number;
  /** text(), json() and okJson() refuse a body longer than this (default UPSTREAM_MAX_BODY_BYTES). */
  maxBytes?: number;
  /** Aborts the request, body included, like the timeout (a download cut short by shutdown). */
  signal?: AbortSignal;
  /**
   * The name the metrics give this call in place of the URL's host. A call to a
   * host taken from a setting (the private API, the telemetry ingest) passes one,
   * so no scrape names the operator's own hosts.
   */
  provider?: string;
  /**
   * A GET whose answer does not depend on who asked may be shared: identical
   * calls in flight become one, a 2xx answer is kept this long, and a failure
   * (a thrown error, another status, a body json() cannot parse) is remembered
   * for the failure memory (at most this long). Never for a call that carries
   * a caller's identity (their Authorization, their quota).
   */
  keepForMs?: number;
  /**
   * With keepForMs: whether a 2xx answer is one the caller can use (json() and
   * okJson() pass its parsed body as `data`); one it cannot is held as a
   * failure, so an error the upstream reports with a 200 is not kept for long.
   */
  keepIf?: (data: unknown, answer: UpstreamBytes) => boolean;
  /**
   * With keepForMs: the question this call asks, when its URL also carries
   * what does not change the answer (a key picked at random from a comma
   * list), so every key's call is one question; the URL otherwise.
   */
  shareAs?: string;
  /**
   * With keepForMs: the answer headers the route reads (lower case); a shared
   * answer keeps only these, so what an upstream sends in its headers is
   * never held past the call. None unless named.
   */
  keepHeaders?: readonly string[];
}

// Every JSON or text answer we read is well under a megabyte; the cap is there
// so a broken or hostile upstream can neither fill the process's memory nor
// hold the event loop while a huge body is parsed (20 MB took 197 ms). A route
// that needs more says so with `maxBytes`, and why.
export const UPSTREAM_MAX_BODY_BYTES = 2 * 1024 * 1024;

// What each upstream host's shared answers may hold: thousands of geo or name
// answers of a few hundred bytes, or some eighty static maps of about 100 KB;
// an answer over the byte bound is never kept. Per host, so answers that
// visitors' questions multiply (maps, addresses) never push out another
// upstream's few (a rate-limited GitHub's star count, the probe list). The
// bytes are everything an answer holds: its body, the headers it keeps and
// what each object costs (keptSize).
const SHARED_MAX_ENTRIES = 5_000;
const SHARED_MAX_BYTES = 8 * 1024 * 1024;
// What a kept answer costs beyond its body and header text: the answer and
// header objects, the Buffer's own object, one property per header.
const ANSWER_OVERHEAD_BYTES = 256;
const HEADER_OVERHEAD_BYTES = 64;
export const DEFAULT_FAILURE_MEMORY_MS = 30_000;

export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Must be consumed or destroyed; the timeout keeps running until it ends. */
  body: Readable;
}

export interface UpstreamJson<T> {
  status: number;
  headers: IncomingHttpHeaders;
  data: T;
}

export interface UpstreamBytes {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

// One pool per resolver, its sockets per origin capped by the descriptor
// budget: undici's default has no cap, and an origin that hangs (a DoH
// resolver, say) would take a socket per request until the table is full.
// A request past the cap waits for a socket, within its own timeout. Names
// resolve through the resolver's cache, never the system's getaddrinfo.
async function outboundAgent(lookup: LookupFunction): Promise<Agent> {
  const { Agent } = await loadUndici();
  return new Agent({ connections: DESCRIPTORS.connectionsPerOrigin, connect: { lookup } });
}

// undici is the heaviest module the service loads, a tenth of start-up's
// CPU: it is loaded with the first upstream call, once the listeners are open.
let undici: Promise<typeof import('undici')> | undefined;
const loadUndici = () => (undici ??= import('undici'));

// The process's pool, shared by every Upstream that names no DNS server of its own.
let outbound: Promise<Agent> | undefined;
const sharedOutbound = () => (outbound ??= outboundAgent(SYSTEM_NAMES.lookup));

/** The host a call is meant for (not the override origin's); a URL that does not parse has none. */
function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : '';
}

/**
 * `answer` as a shared answer is kept: only the named headers, and a body in
 * memory of its own. A small Buffer is a slice of an 8 KB pool, which it
 * would hold whole for as long as it is kept, unseen by the byte bound.
 */
function asKept(answer: UpstreamBytes, names: readonly string[] = []): UpstreamBytes {
  const headers: IncomingHttpHeaders = {};
  for (const name of names) {
    const value = answer.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  let bytes = answer.bytes;
  if (bytes.buffer.byteLength !== bytes.length) {
    bytes = Buffer.allocUnsafeSlow(answer.bytes.length);
    answer.bytes.copy(bytes);
  }
  return { status: answer.status, headers, bytes };
}

/** The bytes a kept answer holds, as the shared answers' bound counts them. */
function keptSize({ headers, bytes }: UpstreamBytes): number {
  let size = ANSWER_OVERHEAD_BYTES + bytes.length;
  for (const [name, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value : [value ?? ''];
    for (const one of values) size += HEADER_OVERHEAD_BYTES + name.length + one.length;
  }
  return size;
}

/** The JSON an answer's body holds; a body that is not JSON throws UpstreamError. */
function parseJson<T>({ status, bytes }: UpstreamBytes): T {
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    throw new UpstreamError(`Upstream answered ${status} with a body that is not JSON`, status);
  }
}

/** The one client every outbound HTTP call goes through. */
export class Upstream {
  readonly userAgent: string;
  readonly timeoutMs: number;
  /** Resolves the names of upstreams, and of WHOIS servers (routes/whois). */
  readonly names: NameResolver;
  private readonly overrideOrigin: string;
  private readonly given?: Dispatcher;
  /** The pool this client opens for its own resolver on its first call, closed with it; undefined when it uses a shared or given one. */
  private ownAgent?: Promise<Agent>;
  /** The lookup of the pool this client opens for itself; undefined when it uses a shared or given one. */
  private readonly ownLookup?: LookupFunction;
  /** False when a dispatcher was given: it connects (or answers) its own way. */
  private readonly resolvesNames: boolean;
  private readonly logger?: Logger;
  private readonly observe?: UpstreamSettings['observe'];
  private readonly shared = new Map<string, SharedLookups<UpstreamBytes>>();
  private readonly failureMemoryMs: number;
  private defaultKeepForMs?: number;

  constructor(settings: UpstreamSettings) {
    this.userAgent = `${PRODUCT_NAME}/v${PRODUCT_VERSION}/${settings.siteUrl.replace(/\/+$/, '')}`;
    this.timeoutMs = settings.timeoutMs;
    this.overrideOrigin = settings.overrideOrigin.replace(/\/+$/, '');
    this.names =
      settings.names ?? (settings.dnsServer ? new NameResolver({ server: settings.dnsServer }) : SYSTEM_NAMES);
    const lookup = settings.connectLookup ?? (this.names === SYSTEM_NAMES ? undefined : this.names.lookup);
    this.ownLookup = settings.dispatcher ? undefined : lookup;
    this.given = settings.dispatcher;
    this.resolvesNames = !settings.dispatcher;
    this.logger = settings.logger;
    this.observe = settings.observe;
    this.failureMemoryMs = settings.failureMemoryMs ?? DEFAULT_FAILURE_MEMORY_MS;
  }

  /** The shared answers of one upstream host, in bounds of their own. */
  private sharedFor(host: string): SharedLookups<UpstreamBytes> {
    let shared = this.shared.get(host);
    if (!shared) {
      shared = new SharedLookups<UpstreamBytes>({
        maxEntries: SHARED_MAX_ENTRIES,
        maxBytes: SHARED_MAX_BYTES,
        failureMs: this.failureMemoryMs,
        sizeOf: keptSize,
      });
      this.shared.set(host, shared);
    }
    return shared;
  }

  /**
   * This client, its GETs shared and kept `keepForMs` unless a call says
   * otherwise: for a route that hands the client to several lookups at once
   * (a Radar view). The shared answers are this client's own.
   */
  keeping(keepForMs: number): Upstream {
    const view = Object.create(this) as Upstream;
    view.defaultKeepForMs = keepForMs;
    return view;
  }

  /** The address actually contacted for `url`. */
  target(url: string): string {
    if (!this.overrideOrigin) return url;
    const parsed = new URL(url);
    return `${this.overrideOrigin}/${parsed.host}${parsed.pathname}${parsed.search}`;
  }

  /** Ends the sockets of the pool this client opened for itself (none when it shares the process's). */
  async close(): Promise<void> {
    await (await this.ownAgent)?.destroy();
  }

  private dispatcher(): Promise<Dispatcher> {
    if (this.given) return Promise.resolve(this.given);
    return this.ownLookup ? (this.ownAgent ??= outboundAgent(this.ownLookup)) : sharedOutbound();
  }

  /**
   * Sends one request; a timeout (default 8 s) aborts it, name resolution and
   * body included, with an AbortError.
   */
  async request(url: string, options: CallOptions = {}): Promise<UpstreamResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? this.timeoutMs);
    const headers: HeaderMap = { 'user-agent': this.userAgent };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value !== undefined) headers[name.toLowerCase()] = value;
    }
    const method = options.method ?? 'GET';
    this.logger?.debug({ method, url: redactUrl(url) }, 'upstream request');
    const provider = options.provider ?? hostOf(url);
    const started = performance.now();
    try {
      const target = this.target(url);
      const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
      await this.resolveWithin(target, signal);
      const { request } = await loadUndici();
      const res = await request(target, {
        method,
        headers,
        body: options.body ?? null,
        signal,
        dispatcher: await this.dispatcher(),
      });
      const body = res.body as unknown as Readable;
      body.once('close', () => clearTimeout(timer));
      body.once('end', () => clearTimeout(timer));
      body.once('error', () => clearTimeout(timer));
      this.observe?.(
        provider,
        `${Math.floor(res.statusCode / 100)}xx` as UpstreamOutcome,
        (performance.now() - started) / 1000,
      );
      return { status: res.statusCode, headers: res.headers as IncomingHttpHeaders, body };
    } catch (err) {
      clearTimeout(timer);
      // Our controller aborts only on the timeout; a shutdown (options.signal) counts as an error.
      this.observe?.(provider, controller.signal.aborted ? 'timeout' : 'error', (performance.now() - started) / 1000);
      throw err;
    }
  }

  /**
   * Resolves the target's host name under the call's own signal, so a lookup
   * ends with the call's timeout: undici settles an abort only once it has a
   * socket, and its connector's lookup has no deadline but the resolver's.
   * The connector then finds the answer in the resolver's cache.
   */
  private async resolveWithin(target: string, signal: AbortSignal): Promise<void> {
    // A URL that does not parse is undici's to refuse, as before.
    if (!this.resolvesNames || !URL.canParse(target)) return;
    const host = new URL(target).hostname.replace(/^\[(.*)\]$/, '$1');
    if (!isIP(host)) await this.names.all(host, signal);
  }

  /** The whole body; a body over `maxBytes` is abandoned with an UpstreamError. */
  bytes(url: string, options: CallOptions = {}): Promise<UpstreamBytes> {
    return this.sharedOr(url, options);
  }

  /**
   * The answer, shared with identical calls when `keepForMs` allows it, and
   * then `parse`d once: what that throws is held as a failure. A call with its
   * own abort signal is never shared: one caller's abort would end the
   * others' answer.
   */
  private sharedOr(
    url: string,
    options: CallOptions,
    parse?: (answer: UpstreamBytes) => unknown,
  ): Promise<UpstreamBytes> {
    const method = options.method ?? 'GET';
    const keepForMs = options.keepForMs ?? this.defaultKeepForMs;
    if (keepForMs === undefined || options.signal || method !== 'GET') return this.fetchBytes(url, options);
    // The parse is part of the question: a json() answer is not a bytes() one; so are the bounds the
    // call sets, since a shorter timeout or a smaller body cap can fail where the caller's would not,
    // and the headers it keeps.
    const bounds = `${options.timeoutMs ?? this.timeoutMs} ${options.maxBytes ?? UPSTREAM_MAX_BODY_BYTES}`;
    const key = `${parse ? 'parsed' : 'bytes'} ${bounds} ${options.shareAs ?? url} ${JSON.stringify(options.headers ?? {})} ${options.keepHeaders?.join(',') ?? ''}`;
    const unusable = new WeakSet<UpstreamBytes>();
    const load = async () => {
      const answer = asKept(await this.fetchBytes(url, options), options.keepHeaders);
      const data = parse?.(answer);
      if (options.keepIf && !options.keepIf(data, answer)) unusable.add(answer);
      return answer;
    };
    const isFailure = (answer: UpstreamBytes) => answer.status < 200 || answer.status >= 300 || unusable.has(answer);
    return this.sharedFor(hostOf(url)).run(key, keepForMs, load, isFailure);
  }

  private async fetchBytes(url: string, options: CallOptions): Promise<UpstreamBytes> {
    const maxBytes = options.maxBytes ?? UPSTREAM_MAX_BODY_BYTES;
    const res = await this.request(url, options);
    const tooLarge = () => {
      res.body.destroy();
      return new UpstreamError(`Upstream answered ${res.status} with a body over ${maxBytes} bytes`, res.status);
    };
    if (Number(res.headers['content-length']) > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of res.body) {
      length += (chunk as Buffer).length;
      if (length > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
    return { status: res.status, headers: res.headers, bytes: Buffer.concat(chunks) };
  }

  /** The whole body as text; a body over `maxBytes` is abandoned with an UpstreamError. */
  async text(
    url: string,
    options: CallOptions = {},
  ): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
    const { status, headers, bytes } = await this.bytes(url, options);
    return { status, headers, text: bytes.toString('utf8') };
  }

  /** The body parsed as JSON, whatever the status; a body that is not JSON throws UpstreamError. */
  async json<T = unknown>(url: string, options: CallOptions = {}): Promise<UpstreamJson<T>> {
    // A shared body that is not JSON is held as a failure; each caller then
    // parses its own copy, free to change it.
    const answer = await this.sharedOr(url, options, parseJson);
    return { status: answer.status, headers: answer.headers, data: parseJson<T>(answer) };
  }

  /** Like json(), but a non-2xx status throws UpstreamError. */
  async okJson<T = unknown>(url: string, options: CallOptions = {}): Promise<T> {
    const res = await this.json<T>(url, options);
    if (res.status < 200 || res.status >= 300) throw new UpstreamError(`Upstream answered ${res.status}`, res.status);
    return res.data;
  }
}
