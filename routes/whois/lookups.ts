import type { FailureLog } from '../../plugins/failure-log.js';
import type { RdapBootstrap } from '../../datasets/rdap/bootstrap.js';
import type { RootZoneTlds } from '../../datasets/tlds/root-zone-tlds.js';
import type { Upstream } from '../../lib/upstream.js';
import { normaliseDomain } from '../../lib/network/domain-name.js';
import { memoryCache } from '../../lib/memory-cache.js';
import type { Deadline } from '../../lib/deadline.js';
import { HttpError } from '../../lib/http-error.js';
import { domainQuery, queryWhois, referralServer, registrarServer, type WhoisAnswer } from './port43.js';
import type { Lookup } from './public-host.js';
import { whoisFields } from './fields.js';
import { fetchRdap, RdapNotFound } from './rdap.js';
import { domainText, ipNetworkText } from './rdap-text.js';
import { firstAnswer } from './first-answer.js';
import { LookupFailed, NOT_FOUND, noTldServer } from './answers.js';
import { HOST_KEY, type DomainAnswer, type IpAnswer } from '../../contract/whois.js';

const IANA_WHOIS = 'whois.iana.org';
const TLD_CACHE_MS = 24 * 60 * 60 * 1000;
// Above the root zone's 1,438 TLDs, so a day's lookups never evict a live
// entry; a hard bound whatever a refreshed TLD list holds.
export const TLD_CACHE_MAX = 2048;
// A source with a fallback after it (RDAP for an address, the registry's
// WHOIS for a domain) has this share of the chain's deadline to itself; past
// it the fallback runs beside it and the first answer wins.
const HEDGE_SHARE = 0.5;

/** One source's record of a domain; the registry's WHOIS also gives its server and text, where a registrar line is read. */
interface DomainSource {
  answer: DomainAnswer;
  registry?: { server: string; text: string };
}

// Each regional registry's port-43 server, keyed by the host of its RDAP base
// URL in the bootstrap files; an address outside them asks IANA for a referral.
const RIR_WHOIS: Record<string, string> = {
  'rdap.afrinic.net': 'whois.afrinic.net',
  'rdap.apnic.net': 'whois.apnic.net',
  'rdap.arin.net': 'whois.arin.net',
  'rdap.lacnic.net': 'whois.lacnic.net',
  'rdap.db.ripe.net': 'whois.ripe.net',
};

export interface WhoisLookupSources {
  upstream: Upstream;
  bootstrap: RdapBootstrap;
  rootZone: RootZoneTlds;
  /** UPSTREAM_TIMEOUT_MS: what an IANA TLD referral may take, whatever the request that asked has left. */
  timeoutMs: number;
  /** WHOIS_OVERRIDE_SERVER, when set. */
  override: string | undefined;
  /** How a WHOIS server's name is resolved (the upstream client's resolver and cache). */
  lookup: Lookup;
}

/**
 * The lookups behind GET /api/whois (routes/whois/README.md): an address by RDAP,
 * then port-43 WHOIS; a domain by its registry's WHOIS server and the
 * registrar's it names, then RDAP. Every host contacted comes out of the
 * IANA bootstrap tables, the fixed registry list above, IANA's referral or
 * the registry's registrar line: the caller's input only selects among them.
 * Every WHOIS server is checked to be public before it is contacted
 * (public-host.ts). One deadline covers each lookup's whole chain: each step
 * gets what the steps before it left.
 */
export function whoisLookups({ upstream, bootstrap, rootZone, timeoutMs, override, lookup }: WhoisLookupSources) {
  /** One port-43 query, given `timeoutMs` at most. */
  function ask(server: string, query: string, timeoutMs: number): Promise<WhoisAnswer> {
    return queryWhois(server, query, { timeoutMs, override, lookup });
  }

  /** The WHOIS server IANA names for `query` (an address or a top-level domain), if it is a plausible host name. */
  async function ianaReferral(
    query: string,
    timeoutMs: number,
  ): Promise<{ server: string | undefined; truncated: boolean }> {
    const answer = await ask(IANA_WHOIS, query, timeoutMs);
    const named = referralServer(answer.text);
    return { server: named && normaliseDomain(named) ? named : undefined, truncated: answer.truncated };
  }

  // IANA's referral per TLD, "none" included, for a day. fetch() shares one
  // query among every request waiting for the same TLD; a failed query is
  // not kept, and neither is a cut-off answer without a whois: line (it may
  // have lost it), which fetchMethod returns as undefined. The query has the
  // whole UPSTREAM_TIMEOUT_MS whatever the request that started it has left:
  // a request stops waiting at its own deadline, and the answer still serves
  // the next one.
  const tldServers = memoryCache<string, { server: string | undefined }>({
    max: TLD_CACHE_MAX,
    ttlMs: TLD_CACHE_MS,
    load: async (tld) => {
      const { server, truncated } = await ianaReferral(tld, timeoutMs);
      return server || !truncated ? { server } : undefined;
    },
  });

  async function tldWhoisServer(tld: string, deadline: Deadline): Promise<string | undefined> {
    return (await deadline.race(tldServers.fetch(tld)))?.server;
  }

  // Answers cut short (a text cut off at the size cap or the deadline, a registrar that did not answer in
  // time): the best there was, for this request, but not one to keep for a day or share for one.
  const partial = new WeakSet<object>();

  /** A port-43 answer as the site shows it (its fields and `__raw`), or undefined when the server sent only blanks. */
  function whoisRecord(answer: WhoisAnswer, failures: FailureLog): IpAnswer | undefined {
    if (answer.text.trim() === '') return undefined;
    const record = Object.assign(whoisFields(answer.text), { __raw: answer.text });
    if (answer.truncated) {
      partial.add(record);
      failures.logUpstreamFailure({ server: answer.server }, 'WHOIS answer cut off at the size cap or the deadline');
    }
    return record;
  }

  /**
   * The registry's record of `domain` over port 43, by IANA's referral for its
   * TLD; undefined when IANA names no registry (`named` stays false) or the
   * registry gave no text.
   */
  async function registryWhois(
    domain: string,
    tld: string,
    deadline: Deadline,
    failures: FailureLog,
    outcome: { named: boolean },
  ): Promise<DomainSource | undefined> {
    try {
      const registry = await tldWhoisServer(tld, deadline);
      if (!registry) return undefined;
      outcome.named = true;
      if (!HOST_KEY.test(registry)) return undefined;
      const answer = await ask(registry, domainQuery(registry, domain), deadline.left());
      const record = whoisRecord(answer, failures);
      if (!record) return undefined;
      const found: DomainAnswer = { [registry]: record };
      if (partial.has(record)) partial.add(found);
      return { answer: found, registry: { server: registry, text: answer.text } };
    } catch (err) {
      // IANA or the registry failed: a WHOIS server was meant to answer.
      outcome.named = true;
      failures.logUpstreamFailure({ err, domain }, 'registry WHOIS lookup failed');
      return undefined;
    }
  }

  /** RDAP's record of `domain` at `base`; undefined when it failed (`outcome` says how). */
  async function rdapDomain(
    domain: string,
    base: string,
    deadline: Deadline,
    outcome: { notFound: boolean; err?: unknown },
  ): Promise<DomainSource | undefined> {
    try {
      const { server, data } = await fetchRdap(upstream, bootstrap, `${base}domain/${domain}`, deadline);
      if (!HOST_KEY.test(server)) throw new Error(`RDAP server name ${server} is not one the site shows`);
      return { answer: { [server]: { ...data, __raw: domainText(data, domain) } } };
    } catch (err) {
      outcome.notFound = err instanceof RdapNotFound;
      outcome.err = err;
      return undefined;
    }
  }

  /** The registry's answer and, when it names one, the registrar's, keyed by server. */
  async function withRegistrar(
    domain: string,
    answer: DomainAnswer,
    registry: { server: string; text: string },
    deadline: Deadline,
    failures: FailureLog,
  ): Promise<DomainAnswer> {
    const registrar = registrarServer(registry.text);
    if (!registrar || registrar === registry.server || !HOST_KEY.test(registrar)) return answer;
    try {
      const record = whoisRecord(await ask(registrar, domain, deadline.left()), failures);
      if (record) answer[registrar] = record;
      if (record && partial.has(record)) partial.add(answer);
    } catch (err) {
      partial.add(answer);
      failures.logUpstreamFailure(
        { err, domain, server: registrar },
        "registrar WHOIS lookup failed; answering with the registry's text",
      );
    }
    return answer;
  }

  async function lookupDomain(domain: string, deadline: Deadline, failures: FailureLog): Promise<DomainAnswer> {
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    const base = bootstrap.baseForTld(tld);
    // Outside the root zone no registry exists to ask: no query is spent on it.
    if (!rootZone.has(tld) && !base) throw new HttpError(404, noTldServer(tld));
    const whois = { named: false };
    const rdap: { notFound: boolean; err?: unknown } = { notFound: false };
    const found = await firstAnswer(
      registryWhois(domain, tld, deadline, failures, whois),
      async () => (base ? rdapDomain(domain, base, deadline, rdap) : undefined),
      base ? deadline.share(HEDGE_SHARE) : deadline,
    );
    if (found?.registry) return withRegistrar(domain, found.answer, found.registry, deadline, failures);
    if (found) return found.answer;
    if (rdap.notFound) throw new HttpError(404, NOT_FOUND);
    if (base) throw new LookupFailed('RDAP lookup failed', { err: rdap.err, domain });
    throw whois.named
      ? new LookupFailed('no WHOIS answer and no RDAP server', { domain })
      : new HttpError(404, noTldServer(tld));
  }

  /** RDAP's network object for `ip` at `base`; undefined when it failed or holds no network field (`outcome` says whether the registry holds nothing). */
  async function rdapIp(
    ip: string,
    base: string,
    deadline: Deadline,
    failures: FailureLog,
    outcome: { unregistered: boolean },
  ): Promise<IpAnswer | undefined> {
    try {
      const { data } = await fetchRdap(upstream, bootstrap, `${base}ip/${ip}`, deadline);
      const raw = ipNetworkText(data);
      if (raw) return { ...data, __raw: raw };
      failures.logUpstreamFailure({ ip }, 'RDAP answer holds no network fields; falling back to WHOIS');
    } catch (err) {
      outcome.unregistered = err instanceof RdapNotFound;
      failures.logUpstreamFailure({ err, ip }, 'RDAP lookup failed; falling back to WHOIS');
    }
    return undefined;
  }

  /** The registry's port-43 record of `ip`: the RIR of `base`, else the server IANA refers to (none: `outcome` says so). */
  async function whoisIp(
    ip: string,
    base: string | undefined,
    deadline: Deadline,
    failures: FailureLog,
    outcome: { unreferred: boolean },
  ): Promise<IpAnswer | undefined> {
    try {
      let server = base ? RIR_WHOIS[new URL(base).hostname] : undefined;
      if (!server) {
        server = (await ianaReferral(ip, deadline.left())).server;
        outcome.unreferred = !server;
      }
      return server ? whoisRecord(await ask(server, ip, deadline.left()), failures) : undefined;
    } catch (err) {
      failures.logUpstreamFailure({ err, ip }, 'WHOIS lookup failed');
      return undefined;
    }
  }

  async function lookupIp(ip: string, deadline: Deadline, failures: FailureLog): Promise<IpAnswer> {
    const base = bootstrap.baseForIp(ip);
    // Set when a registry said it holds nothing: a 404 then, not a failure.
    const rdap = { unregistered: false };
    const whois = { unreferred: false };
    const answer = base
      ? await firstAnswer(
          rdapIp(ip, base, deadline, failures, rdap),
          () => whoisIp(ip, base, deadline, failures, whois),
          deadline.share(HEDGE_SHARE),
        )
      : await whoisIp(ip, base, deadline, failures, whois);
    if (answer) return answer;
    throw rdap.unregistered || whois.unreferred
      ? new HttpError(404, NOT_FOUND)
      : new LookupFailed('neither RDAP nor WHOIS answered', { ip });
  }
  /** Whether an answer was cut short, so it is answered but neither kept nor cached. */
  const isPartial = (answer: object): boolean => partial.has(answer);
  return { lookupIp, lookupDomain, isPartial };
}
