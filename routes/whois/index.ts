import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import ipaddr from 'ipaddr.js';
import { RdapBootstrap } from '../../datasets/rdap/bootstrap.js';
import { isIp, isPublicIp, normaliseDomain } from '../../schemas/guards.js';
import { queryWhois, referralServer, type WhoisAnswer } from './port43.js';
import { HttpError } from '../../lib/http-error.js';

export const INVALID_QUERY = 'Invalid query';
export const NOT_PUBLIC = 'Not a public IP address';
export const NO_TLD_SERVER = 'No WHOIS or RDAP server for this top-level domain';
export const LOOKUP_FAILED = 'WHOIS lookup failed';

const IANA_WHOIS = 'whois.iana.org';
const TLD_CACHE_MS = 24 * 60 * 60 * 1000;
const MAX_RDAP_REFERRALS = 2;
// An RDAP object is a few kilobytes; anything this large is not one.
const RDAP_MAX_BYTES = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// Each regional registry's port-43 server, keyed by the host of its RDAP base
// URL in the bootstrap files; an address outside them asks IANA for a referral.
const RIR_WHOIS: Record<string, string> = {
  'rdap.afrinic.net': 'whois.afrinic.net',
  'rdap.apnic.net': 'whois.apnic.net',
  'rdap.arin.net': 'whois.arin.net',
  'rdap.lacnic.net': 'whois.lacnic.net',
  'rdap.db.ripe.net': 'whois.ripe.net',
};

const WhoisResult = Type.Object({
  query: Type.String(),
  type: Type.Union([Type.Literal('ip'), Type.Literal('domain')]),
  source: Type.Union([Type.Literal('rdap'), Type.Literal('whois')]),
  server: Type.String(),
  rdap: Type.Optional(Type.Unknown()),
  whois: Type.Optional(Type.String()),
  truncated: Type.Optional(Type.Boolean()),
});
type WhoisResult = Static<typeof WhoisResult>;

/**
 * GET /api/whois?q=: RDAP first, port-43 WHOIS as the fallback, for a public
 * IP address or a domain. Every host contacted comes out of the IANA
 * bootstrap tables, the fixed registry list above or IANA's own referral: the
 * caller's input only selects among them.
 */
const whois: FastifyPluginAsyncTypebox = async (app) => {
  const bootstrap = new RdapBootstrap(app.upstream, app.log);
  app.lifecycle.addStep({ phase: 'background', name: 'rdap-bootstrap-refresh', run: async () => bootstrap.start() });
  app.lifecycle.onStop('rdap-bootstrap-refresh', () => bootstrap.stop());

  const port43 = { timeoutMs: app.config.UPSTREAM_TIMEOUT_MS, override: app.config.WHOIS_OVERRIDE_SERVER || undefined };
  const tldServers = new Map<string, { server: string | undefined; expires: number }>();

  async function rdap(url: string): Promise<{ server: string; data: unknown }> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const res = await app.upstream.request(target, { headers: { accept: 'application/rdap+json' } });
      if (REDIRECTS.has(res.status)) {
        res.body.destroy();
        const location = typeof res.headers.location === 'string' ? new URL(res.headers.location, target).href : '';
        if (hop >= MAX_RDAP_REFERRALS || !bootstrap.isKnownBase(location)) {
          throw new Error(`RDAP referral to a server outside the bootstrap files: ${location || 'none'}`);
        }
        target = location;
        continue;
      }
      if (res.status !== 200) {
        res.body.destroy();
        throw new Error(`RDAP server answered ${res.status}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > RDAP_MAX_BYTES) {
          res.body.destroy();
          throw new Error('RDAP answer larger than the cap');
        }
        chunks.push(chunk as Buffer);
      }
      const data: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('RDAP answer is not an object');
      return { server: new URL(target).hostname, data };
    }
  }

  /** The WHOIS server IANA names for `query` (an address or a top-level domain), if it is a plausible host name. */
  async function ianaReferral(query: string): Promise<{ server: string | undefined; truncated: boolean }> {
    const answer = await queryWhois(IANA_WHOIS, query, port43);
    const named = referralServer(answer.text);
    return { server: named && normaliseDomain(named) ? named : undefined, truncated: answer.truncated };
  }

  async function tldWhoisServer(tld: string): Promise<string | undefined> {
    const cached = tldServers.get(tld);
    if (cached && cached.expires > Date.now()) return cached.server;
    const { server, truncated } = await ianaReferral(tld);
    // A cut-off answer may have lost its whois: line; it is not worth a day.
    if (server || !truncated) tldServers.set(tld, { server, expires: Date.now() + TLD_CACHE_MS });
    return server;
  }

  function fromWhois(query: string, type: 'ip' | 'domain', answer: WhoisAnswer): WhoisResult {
    return { query, type, source: 'whois', server: answer.server, whois: answer.text, truncated: answer.truncated };
  }

  /** The RDAP answer for `query` under `base`, or undefined (logged) so the caller falls back to WHOIS. */
  async function tryRdap(base: string | undefined, type: 'ip' | 'domain', query: string, log: typeof app.log): Promise<WhoisResult | undefined> {
    if (!base) return undefined;
    try {
      const { server, data } = await rdap(`${base}${type}/${query}`);
      return { query, type, source: 'rdap', server, rdap: data };
    } catch (err) {
      log.warn({ err, [type]: query }, 'RDAP lookup failed; falling back to WHOIS');
      return undefined;
    }
  }

  async function lookupIp(ip: string, log: typeof app.log): Promise<WhoisResult> {
    const base = bootstrap.baseForIp(ip);
    const answered = await tryRdap(base, 'ip', ip, log);
    if (answered) return answered;
    try {
      const server = (base ? RIR_WHOIS[new URL(base).hostname] : undefined) ?? (await ianaReferral(ip)).server;
      if (!server) throw new Error('IANA named no WHOIS server for this address');
      return fromWhois(ip, 'ip', await queryWhois(server, ip, port43));
    } catch (err) {
      log.warn({ err, ip }, 'WHOIS lookup failed');
      throw new HttpError(502, LOOKUP_FAILED);
    }
  }

  async function lookupDomain(domain: string, log: typeof app.log): Promise<WhoisResult> {
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    const base = bootstrap.baseForTld(tld);
    const answered = await tryRdap(base, 'domain', domain, log);
    if (answered) return answered;
    let server: string | undefined;
    try {
      server = await tldWhoisServer(tld);
    } catch (err) {
      log.warn({ err, tld }, 'IANA WHOIS referral failed');
      throw new HttpError(502, LOOKUP_FAILED);
    }
    if (!server) throw new HttpError(base ? 502 : 404, base ? LOOKUP_FAILED : NO_TLD_SERVER);
    try {
      return fromWhois(domain, 'domain', await queryWhois(server, domain, port43));
    } catch (err) {
      log.warn({ err, domain, server }, 'WHOIS lookup failed');
      throw new HttpError(502, LOOKUP_FAILED);
    }
  }

  app.get(
    '/whois',
    {
      schema: { querystring: Type.Object({ q: Type.Optional(Type.Unknown()) }), response: { 200: WhoisResult } },
      config: { cacheTtl: 24 * 60 * 60 },
    },
    async (request) => {
      const q = typeof request.query.q === 'string' ? request.query.q.trim() : '';
      if (q && isIp(q)) {
        if (!isPublicIp(q)) throw new HttpError(400, NOT_PUBLIC);
        return lookupIp(ipaddr.parse(q).toString(), request.log);
      }
      const domain = q ? normaliseDomain(q) : undefined;
      if (!domain) throw new HttpError(400, INVALID_QUERY);
      return lookupDomain(domain, request.log);
    },
  );
};

export default whois;
