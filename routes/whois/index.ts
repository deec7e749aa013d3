import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import ipaddr from 'ipaddr.js';
import type { FailureLog } from '../../plugins/failure-log.js';
import { RdapBootstrap } from '../../datasets/rdap/bootstrap.js';
import { RootZoneTlds } from '../../datasets/tlds/root-zone-tlds.js';
import { isIp } from '../../lib/network/ip-address.js';
import { isPublicIp } from '../../lib/network/public-address.js';
import { normaliseDomain } from '../../lib/network/domain-name.js';
import { memoryCache } from '../../lib/memory-cache.js';
import { SharedLookups } from '../../lib/shared-lookups.js';
import { ErrorAnswers } from '../../schemas/error-body.js';
import { HttpError, UpstreamFailure, type LogFields } from '../../lib/http-error.js';
import { domainQuery, queryWhois, referralServer, registrarServer, type WhoisAnswer } from './port43.js';
import { whoisFields } from './fields.js';
import { fetchRdap, RdapNotFound } from './rdap.js';
import { domainText, ipNetworkText } from './rdap-text.js';
import { HOST_KEY, WhoisResponse, type DomainAnswer, type IpAnswer } from './schema.js';

// The spec fixes only NOT_PUBLIC and the statuses; the other 400s are the
// strings of the site's own backend (frontend contract, section 2.3).
export const NO_QUERY = 'No address provided';
export const INVALID_QUERY = 'Invalid IP or address';
export const NOT_PUBLIC = 'Not a public IP address';
export const NOT_FOUND = 'Not found in the registry';
export const LOOKUP_FAILED = 'WHOIS lookup failed';
export const noTldServer = (tld: string) => `No WHOIS or RDAP server for .${tld}`;

/** 502 `WHOIS lookup failed`: every server that could answer failed. */
class LookupFailed extends UpstreamFailure {
  constructor(logMessage: string, logFields: LogFields) {
    super(502, LOOKUP_FAILED, logMessage, logFields);
  }
}

const IANA_WHOIS = 'whois.iana.org';
const TLD_CACHE_MS = 24 * 60 * 60 * 1000;
// Above the root zone's 1,438 TLDs, so a day's lookups never evict a live
// entry; a hard bound whatever a refreshed TLD list holds.
export const TLD_CACHE_MAX = 2048;
const WHOIS_TTL = 24 * 60 * 60;
// A WHOIS answer is a few kilobytes of text: a day of distinct questions fits.
const ANSWERS_MAX = 5000;
const ANSWERS_MAX_BYTES = 16 * 1024 * 1024;

// Each regional registry's port-43 server, keyed by the host of its RDAP base
// URL in the bootstrap files; an address outside them asks IANA for a referral.
const RIR_WHOIS: Record<string, string> = {
  'rdap.afrinic.net': 'whois.afrinic.net',
  'rdap.apnic.net': 'whois.apnic.net',
  'rdap.arin.net': 'whois.arin.net',
  'rdap.lacnic.net': 'whois.lacnic.net',
  'rdap.db.ripe.net': 'whois.ripe.net',
};

/**
 * GET /api/whois?q=, in the shapes the site reads (docs/whois-dns.md):
 * a public IP address goes to RDAP first and port-43 WHOIS second; a domain
 * goes to its registry's WHOIS server, then the registrar's it names, and to
 * RDAP only when WHOIS gave no text. Every host contacted comes out of the
 * IANA bootstrap tables, the fixed registry list above, IANA's referral or
 * the registry's registrar line: the caller's input only selects among them,
 * and only a top-level domain of the root zone (or of the RDAP bootstrap)
 * costs a query. Every WHOIS server is checked to be public before it is
 * contacted (public-host.ts).
 */
const whois: FastifyPluginAsyncTypebox = async (app) => {
  const bootstrap = new RdapBootstrap(app.upstream, app.log);
  app.lifecycle.addStep({ phase: 'background', name: 'rdap-bootstrap-refresh', run: async () => bootstrap.start() });
  app.lifecycle.onStop('rdap-bootstrap-refresh', () => bootstrap.stop());
  app.readiness.addDataset('rdapBootstrap', () => bootstrap.status());
  const rootZone = new RootZoneTlds(app.upstream, app.log);
  app.lifecycle.addStep({ phase: 'background', name: 'tld-list-refresh', run: async () => rootZone.start() });
  app.lifecycle.onStop('tld-list-refresh', () => rootZone.stop());
  app.readiness.addDataset('tldList', () => rootZone.status());

  // A whole lookup (referrals, RDAP, port 43) is the shared unit: port 43 is not
  // HTTP, so the upstream client's sharing cannot see it.
  const answers = new SharedLookups<IpAnswer | DomainAnswer>({
    maxEntries: ANSWERS_MAX,
    maxBytes: ANSWERS_MAX_BYTES,
    failureMs: app.config.UPSTREAM_FAILURE_MEMORY_MS,
    sizeOf: (answer) => JSON.stringify(answer).length,
  });
  // Server names resolve as upstream names do (DNS_OVERRIDE_SERVER included), through their cache.
  const port43 = {
    timeoutMs: app.config.UPSTREAM_TIMEOUT_MS,
    override: app.config.WHOIS_OVERRIDE_SERVER || undefined,
    lookup: (host: string) => app.upstream.names.all(host),
  };

  /** The WHOIS server IANA names for `query` (an address or a top-level domain), if it is a plausible host name. */
  async function ianaReferral(query: string): Promise<{ server: string | undefined; truncated: boolean }> {
    const answer = await queryWhois(IANA_WHOIS, query, port43);
    const named = referralServer(answer.text);
    return { server: named && normaliseDomain(named) ? named : undefined, truncated: answer.truncated };
  }

  // IANA's referral per TLD, "none" included, for a day. fetch() shares one
  // query among every request waiting for the same TLD; a failed query is
  // not kept, and neither is a cut-off answer without a whois: line (it may
  // have lost it), which fetchMethod returns as undefined.
  const tldServers = memoryCache<string, { server: string | undefined }>({
    max: TLD_CACHE_MAX,
    ttlMs: TLD_CACHE_MS,
    load: async (tld) => {
      const { server, truncated } = await ianaReferral(tld);
      return server || !truncated ? { server } : undefined;
    },
  });

  async function tldWhoisServer(tld: string): Promise<string | undefined> {
    return (await tldServers.fetch(tld))?.server;
  }

  /** A port-43 answer as the site shows it (its fields and `__raw`), or undefined when the server sent only blanks. */
  function whoisRecord(answer: WhoisAnswer, failures: FailureLog): IpAnswer | undefined {
    if (answer.text.trim() === '') return undefined;
    if (answer.truncated) {
      failures.logUpstreamFailure({ server: answer.server }, 'WHOIS answer cut off at the size cap or the deadline');
    }
    return Object.assign(whoisFields(answer.text), { __raw: answer.text });
  }

  /** The registry's answer and, when it names one, the registrar's, keyed by server; empty when the registry gave no text. */
  async function domainWhois(domain: string, registry: string, failures: FailureLog): Promise<DomainAnswer> {
    const answer: DomainAnswer = {};
    let text: string;
    try {
      const registryAnswer = await queryWhois(registry, domainQuery(registry, domain), port43);
      const record = whoisRecord(registryAnswer, failures);
      if (!record) return answer;
      answer[registry] = record;
      text = registryAnswer.text;
    } catch (err) {
      failures.logUpstreamFailure({ err, domain, server: registry }, 'registry WHOIS lookup failed; trying RDAP');
      return answer;
    }
    const registrar = registrarServer(text);
    if (!registrar || registrar === registry || !HOST_KEY.test(registrar)) return answer;
    try {
      const record = whoisRecord(await queryWhois(registrar, domain, port43), failures);
      if (record) answer[registrar] = record;
    } catch (err) {
      failures.logUpstreamFailure(
        { err, domain, server: registrar },
        "registrar WHOIS lookup failed; answering with the registry's text",
      );
    }
    return answer;
  }

  async function lookupDomain(domain: string, failures: FailureLog): Promise<DomainAnswer> {
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    // Outside the root zone no registry exists to ask: no query is spent on it.
    if (!rootZone.has(tld) && !bootstrap.baseForTld(tld)) throw new HttpError(404, noTldServer(tld));
    let registry: string | undefined;
    let ianaFailed = false;
    try {
      registry = await tldWhoisServer(tld);
    } catch (err) {
      ianaFailed = true;
      failures.logUpstreamFailure({ err, tld }, 'IANA WHOIS referral failed');
    }
    if (registry && HOST_KEY.test(registry)) {
      const answer = await domainWhois(domain, registry, failures);
      if (Object.keys(answer).length > 0) return answer;
    }
    const base = bootstrap.baseForTld(tld);
    if (!base) {
      throw registry || ianaFailed
        ? new LookupFailed('no WHOIS answer and no RDAP server', { domain })
        : new HttpError(404, noTldServer(tld));
    }
    try {
      const { server, data } = await fetchRdap(app.upstream, bootstrap, `${base}domain/${domain}`);
      if (!HOST_KEY.test(server)) throw new Error(`RDAP server name ${server} is not one the site shows`);
      return { [server]: { ...data, __raw: domainText(data, domain) } };
    } catch (err) {
      if (err instanceof RdapNotFound) throw new HttpError(404, NOT_FOUND);
      throw new LookupFailed('RDAP lookup failed', { err, domain });
    }
  }

  async function lookupIp(ip: string, failures: FailureLog): Promise<IpAnswer> {
    const base = bootstrap.baseForIp(ip);
    // Set when a registry said it holds nothing: a 404 then, not a failure.
    let unregistered = false;
    if (base) {
      try {
        const { data } = await fetchRdap(app.upstream, bootstrap, `${base}ip/${ip}`);
        const raw = ipNetworkText(data);
        if (raw) return { ...data, __raw: raw };
        failures.logUpstreamFailure({ ip }, 'RDAP answer holds no network fields; falling back to WHOIS');
      } catch (err) {
        unregistered = err instanceof RdapNotFound;
        failures.logUpstreamFailure({ err, ip }, 'RDAP lookup failed; falling back to WHOIS');
      }
    }
    try {
      let server = base ? RIR_WHOIS[new URL(base).hostname] : undefined;
      if (!server) {
        server = (await ianaReferral(ip)).server;
        unregistered ||= !server;
      }
      const record = server ? whoisRecord(await queryWhois(server, ip, port43), failures) : undefined;
      if (record) return record;
    } catch (err) {
      failures.logUpstreamFailure({ err, ip }, 'WHOIS lookup failed');
    }
    throw unregistered ? new HttpError(404, NOT_FOUND) : new LookupFailed('neither RDAP nor WHOIS answered', { ip });
  }

  app.get(
    '/whois',
    {
      schema: {
        querystring: Type.Object({ q: Type.Optional(Type.Unknown()) }),
        response: { 200: WhoisResponse, ...ErrorAnswers },
      },
      config: { cacheTtl: WHOIS_TTL },
    },
    async (request) => {
      const q = typeof request.query.q === 'string' ? request.query.q.trim() : '';
      if (!q) throw new HttpError(400, NO_QUERY);
      if (isIp(q)) {
        if (!isPublicIp(q)) throw new HttpError(400, NOT_PUBLIC);
        const ip = ipaddr.parse(q).toString();
        return answers.run(`ip ${ip}`, WHOIS_TTL * 1000, () => lookupIp(ip, request));
      }
      const domain = normaliseDomain(q);
      if (!domain) throw new HttpError(400, INVALID_QUERY);
      return answers.run(`domain ${domain}`, WHOIS_TTL * 1000, () => lookupDomain(domain, request));
    },
  );
};

export default whois;
export { examples } from './examples.js';
