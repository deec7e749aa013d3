import { lookup as osLookup, promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import CacheableLookup, { type EntryObject } from 'cacheable-lookup';
import { memoryCache } from '../memory-cache.js';

/** How long one name may take to resolve, retries included; past it the lookup fails. */
export const LOOKUP_TIMEOUT_MS = 4000;
// c-ares asks again once when a question goes unanswered (a lost UDP packet),
// waiting longer the second time: it gives up after about 4 s, when
// LOOKUP_TIMEOUT_MS does.
const QUERY_TIMEOUT_MS = 1000;
const QUERY_TRIES = 2;
// An answer is kept for its TTL, at most this long, so an address that moved
// is found again within minutes even behind a resolver that sends long TTLs.
const MAX_TTL_S = 600;
// The service calls a few dozen hosts; WHOIS referrals add registrars, some
// thousands at most. Past the bound the least recently used name goes.
const MAX_NAMES = 2048;
// A failure (no such name, no answer in time) is remembered this long, so a
// dead resolver costs one wait per name every few seconds, not one per
// visitor; short, so a resolver back from a blip is used again at once.
export const FAILURE_TTL_MS = 5000;

/** A name that did not resolve, with the code node:dns `lookup` gives the same failure. */
export class NameNotResolved extends Error {
  constructor(
    readonly hostname: string,
    readonly code: 'ENOTFOUND' | 'EAI_AGAIN',
    reason: string,
  ) {
    super(`${hostname} did not resolve: ${reason}`);
    this.name = 'NameNotResolved';
  }
}

export interface NameResolverOptions {
  /** `host:port` of the DNS server to ask; the system's (/etc/resolv.conf) when absent. */
  server?: string;
  timeoutMs?: number;
  /**
   * Asked when DNS says a name does not exist (never when it does not answer):
   * the system's own lookup, which reads /etc/hosts, where an operator may name
   * a private endpoint. Off with a `server` of its own (DNS_OVERRIDE_SERVER).
   */
  hostsLookup?: typeof osLookup | false;
}

/** cacheable-lookup's cache, bounded: each name's addresses for the TTL it passes, least recently used out first. */
class BoundedAnswers {
  private readonly answers = memoryCache<string, EntryObject[]>({ max: MAX_NAMES, ttlMs: MAX_TTL_S * 1000 });
  get(name: string): EntryObject[] | undefined {
    return this.answers.get(name);
  }
  set(name: string, entries: EntryObject[], ttlMs: number): void {
    this.answers.set(name, entries, { ttl: ttlMs });
  }
  delete(name: string): boolean {
    return this.answers.delete(name);
  }
  clear(): void {
    this.answers.clear();
  }
}

const LOOPBACK: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Outbound name resolution through c-ares (node:dns's Resolver), not the
 * system's getaddrinfo: that runs in libuv's four-thread pool, where a
 * resolver that never answers holds a thread for its whole retry cycle (5 s
 * and more) and no abort can reach it. Every lookup ends within its timeout;
 * answers are kept per their TTL (cacheable-lookup), concurrent lookups of
 * one name share one question, and failures are remembered briefly. A name
 * DNS says does not exist is asked of the system too (/etc/hosts, see
 * `hostsLookup`); `localhost` names are loopback (RFC 6761), an IP literal is
 * itself.
 */
export class NameResolver {
  private readonly cache: CacheableLookup;
  private readonly failures = memoryCache<string, NameNotResolved>({ max: MAX_NAMES, ttlMs: FAILURE_TTL_MS });
  private readonly timeoutMs: number;

  constructor(options: NameResolverOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? LOOKUP_TIMEOUT_MS;
    const resolver = new dns.Resolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
    if (options.server) resolver.setServers([options.server]);
    const hostsLookup = options.hostsLookup ?? (options.server ? false : osLookup);
    this.cache = new CacheableLookup({
      cache: new BoundedAnswers(),
      resolver,
      maxTtl: MAX_TTL_S,
      // A name without addresses is remembered by `failures`, not here.
      errorTtl: 0,
      // getaddrinfo (the thread pool this replaces) only for a name DNS says does not exist, as one
      // in /etc/hosts: cacheable-lookup falls back on "no such name" alone, a resolver that does not
      // answer fails here; a name found that way is asked of the system for the next hour.
      lookup: hostsLookup,
      fallbackDuration: hostsLookup ? 3600 : 0,
    });
  }

  /**
   * Every address of `hostname`, A then AAAA. Rejects with NameNotResolved
   * when it has none or none came in time, and with `signal`'s reason as soon
   * as that aborts.
   */
  async all(hostname: string, signal?: AbortSignal): Promise<LookupAddress[]> {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (isIP(name)) return [{ address: name, family: isIP(name) }];
    if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK;
    const failure = this.failures.get(name);
    if (failure) throw failure;
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new NameNotResolved(name, 'EAI_AGAIN', `no answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const stop = signal ? AbortSignal.any([abort.signal, signal]) : abort.signal;
    try {
      const addresses = await Promise.race([this.query(name), aborted(stop)]);
      return addresses.map(({ address, family }) => ({ address, family }));
    } catch (err) {
      if (err instanceof NameNotResolved) this.failures.set(name, err);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The `lookup` net.connect and undici's connector take (`connect: { lookup }`). */
  readonly lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    this.all(hostname).then(
      (addresses) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (!first) callback(new NameNotResolved(hostname, 'ENOTFOUND', `no IPv${family} address`), '');
        else if (options.all) callback(null, wanted);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };

  private async query(name: string): Promise<readonly EntryObject[]> {
    let entries: readonly EntryObject[];
    try {
      entries = await this.cache.lookupAsync(name, { all: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') throw new NameNotResolved(name, 'ENOTFOUND', 'no such name, or no address');
      throw new NameNotResolved(name, 'EAI_AGAIN', `the resolver answered ${code ?? (err as Error).message}`);
    }
    return entries;
  }
}

/** The process's resolver, asking the system's DNS servers; shared by every client that names no server of its own. */
export const SYSTEM_NAMES = new NameResolver();

/** A promise that rejects with `signal`'s reason once it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
