import { Resolver } from 'node:dns/promises';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { guarded } from '../../schemas/guarded.js';
import { domainGuard, recordTypeGuard, type DnsRecordType } from '../../schemas/guards.js';
import { ErrorAnswers, TooManyRequestsBody } from '../../schemas/error-body.js';
import { loadResolvers, type ResolverSpec } from './resolvers.js';
import { FAILED, dohResult, plainNothing, plainResult, type RowAnswer } from './result.js';
import { Questions } from './questions.js';
import { DESCRIPTORS } from '../../lib/descriptor-budget.js';
import { limiterKey } from '../../lib/client-ip.js';
import { TooManyRequests } from '../../plugins/rate-limit.js';
import { ClientLookups } from './client-lookups.js';
import { DnsResolverAnswer, type DnsRow } from '../../contract/dnsresolver.js';

// Per-query bounds of the site this API serves (frontend contract, section 3).
const UDP_TIMEOUT_MS = 3000;
const DOH_TIMEOUT_MS = 5000;
// A client over its share of comparisons may ask again as soon as one of its own ends.
const RETRY_AFTER_S = 1;

/** Each plain-DNS and DoH query's bound: the contract's, or UPSTREAM_TIMEOUT_MS when that is lower (tests set it low). */
export function queryTimeouts(upstreamTimeoutMs: number): { udpMs: number; dohMs: number } {
  return { udpMs: Math.min(UDP_TIMEOUT_MS, upstreamTimeoutMs), dohMs: Math.min(DOH_TIMEOUT_MS, upstreamTimeoutMs) };
}

export interface DnsResolverOptions {
  /** The providers to compare; routes/dnsresolver/resolvers.json when absent. */
  resolvers?: ResolverSpec[];
}

/**
 * GET /api/dnsresolver?hostname=&type=: the same question to every provider
 * of the data file at once, over plain DNS and over DoH where it has both,
 * one row each (the udp row first). A failure stays in its own row as "N/A";
 * the answer is 200 whenever the guards pass. Resolver addresses come only
 * from the data file; the caller chooses the name and the type asked.
 */
const dnsresolver: FastifyPluginAsyncTypebox<DnsResolverOptions> = async (app, options) => {
  const resolvers = options.resolvers ?? loadResolvers();
  const { udpMs: udpTimeoutMs, dohMs: dohTimeoutMs } = queryTimeouts(app.config.UPSTREAM_TIMEOUT_MS);
  const override = app.config.DNS_OVERRIDE_SERVER;

  // One Resolver per server for the plugin's life: a c-ares channel per
  // request would cost more than the loopback-fast queries it serves.
  const channels = new Map<string, Resolver>();
  function channel(server: string): Resolver {
    let resolver = channels.get(server);
    if (!resolver) {
      resolver = new Resolver({ timeout: udpTimeoutMs, tries: 1 });
      resolver.setServers([override || server]);
      channels.set(server, resolver);
    }
    return resolver;
  }
  app.addHook('onClose', async () => {
    for (const resolver of channels.values()) resolver.cancel();
  });

  const questions = new Questions(DESCRIPTORS.dnsQueries);
  // A waiting comparison gets its turn within one comparison's deadline, or never.
  const clientLookups = new ClientLookups(app.config.DNSRESOLVER_CLIENT_LOOKUPS, dohTimeoutMs + udpTimeoutMs);

  function plain(server: string, hostname: string, type: DnsRecordType, log: FastifyBaseLogger): Promise<RowAnswer> {
    return questions.ask(
      `udp ${server} ${hostname} ${type}`,
      udpTimeoutMs,
      async () => {
        try {
          return plainResult(type, await channel(server).resolve(hostname, type));
        } catch (err) {
          // NXDOMAIN and NODATA are answers, not failures: node:dns throws them.
          const nothing = plainNothing(err);
          if (nothing) return nothing;
          throw err;
        }
      },
      (err) => log.debug({ err, server, hostname, type }, 'plain DNS query failed'),
    );
  }

  function doh(url: string, hostname: string, type: DnsRecordType, log: FastifyBaseLogger): Promise<RowAnswer> {
    const target = `${url}${url.includes('?') ? '&' : '?'}name=${encodeURIComponent(hostname)}&type=${type}`;
    return questions.ask(
      `doh ${target}`,
      dohTimeoutMs,
      async (remainingMs) => {
        const { status, text } = await app.upstream.text(target, {
          headers: { accept: 'application/dns-json' },
          timeoutMs: remainingMs,
        });
        if (status !== 200) {
          log.debug({ url, status }, 'DoH resolver answered an error status');
          return FAILED;
        }
        return dohResult(JSON.parse(text), type);
      },
      (err) => log.debug({ err, url, hostname, type }, 'DoH query failed'),
    );
  }

  function rows(hostname: string, type: DnsRecordType, log: FastifyBaseLogger): Array<Promise<DnsRow>> {
    const out: Array<Promise<DnsRow>> = [];
    for (const { id, provider, country, udp, doh: url } of resolvers) {
      if (udp) {
        out.push(plain(udp, hostname, type, log).then((answer) => ({ id, provider, country, type: 'udp', ...answer })));
      }
      if (url) {
        out.push(doh(url, hostname, type, log).then((answer) => ({ id, provider, country, type: 'doh', ...answer })));
      }
    }
    return out;
  }

  app.get(
    '/dnsresolver',
    {
      schema: {
        summary: "A hostname's records from a dozen resolvers, plain DNS and DNS over HTTPS",
        querystring: Type.Object({ hostname: guarded(domainGuard), type: guarded(recordTypeGuard) }),
        response: {
          200: DnsResolverAnswer,
          429: Type.Object(TooManyRequestsBody.properties, {
            description:
              'The rate limit (SECURITY_RATE_LIMIT) reached, or this client already has its comparisons running and waiting (DNSRESOLVER_CLIENT_LOOKUPS)',
          }),
          ...ErrorAnswers,
        },
      },
    },
    async (request, reply) => {
      // The guards have checked and normalised both (see schemas/guards.ts).
      const hostname = request.query.hostname;
      const type = request.query.type as DnsRecordType;
      const results = await clientLookups.run(limiterKey(request), () =>
        Promise.all(rows(hostname, type, request.log)),
      );
      if (!results) {
        reply.header('retry-after', RETRY_AFTER_S);
        throw new TooManyRequests();
      }
      return { hostname, results };
    },
  );
};

export default dnsresolver;
export { examples } from './examples.js';
