import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import ipaddr from 'ipaddr.js';
import { RdapBootstrap } from '../../datasets/rdap/bootstrap.js';
import { RootZoneTlds } from '../../datasets/tlds/root-zone-tlds.js';
import { isIp } from '../../lib/network/ip-address.js';
import { isPublicIp } from '../../lib/network/public-address.js';
import { normaliseDomain } from '../../lib/network/domain-name.js';
import { Deadline } from '../../lib/deadline.js';
import { SharedLookups } from '../../lib/shared-lookups.js';
import { ErrorAnswers } from '../../schemas/error-body.js';
import { HttpError } from '../../lib/http-error.js';
import { INVALID_QUERY, NO_QUERY, NOT_PUBLIC } from './answers.js';
import { whoisLookups } from './lookups.js';
import { WhoisResponse, type DomainAnswer, type IpAnswer } from '../../contract/whois.js';

export { NO_QUERY, INVALID_QUERY, NOT_PUBLIC, NOT_FOUND, LOOKUP_FAILED, noTldServer } from './answers.js';
export { TLD_CACHE_MAX } from './lookups.js';

const WHOIS_TTL = 24 * 60 * 60;
// A WHOIS answer is a few kilobytes of text: a day of distinct questions fits.
const ANSWERS_MAX = 5000;
const ANSWERS_MAX_BYTES = 16 * 1024 * 1024;

/**
 * GET /api/whois?q=, in the shapes the site reads (routes/whois/README.md): the
 * query is checked here and looked up by lookups.ts within one deadline,
 * UPSTREAM_TIMEOUT_MS, for its whole chain of servers.
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

  const { lookupIp, lookupDomain, isPartial } = whoisLookups({
    upstream: app.upstream,
    bootstrap,
    rootZone,
    timeoutMs: app.config.UPSTREAM_TIMEOUT_MS,
    override: app.config.WHOIS_OVERRIDE_SERVER || undefined,
    // Server names resolve as upstream names do (DNS_OVERRIDE_SERVER included), through their cache.
    lookup: (host: string) => app.upstream.names.all(host),
  });
  // A whole lookup (referrals, RDAP, port 43) is the shared unit: port 43 is not
  // HTTP, so the upstream client's sharing cannot see it.
  const answers = new SharedLookups<IpAnswer | DomainAnswer>({
    maxEntries: ANSWERS_MAX,
    maxBytes: ANSWERS_MAX_BYTES,
    failureMs: app.config.UPSTREAM_FAILURE_MEMORY_MS,
    sizeOf: (answer) => JSON.stringify(answer).length,
  });

  // A day in a shared cache for a whole answer (the spec's TTL); one cut short is no-store, as the shared
  // answers keep it only as long as a failure.
  const cacheable = <A extends object>(reply: FastifyReply, answer: A): A => {
    reply.header('cache-control', isPartial(answer) ? 'no-store' : `public, max-age=${WHOIS_TTL}`);
    return answer;
  };

  app.get(
    '/whois',
    {
      schema: {
        summary: "A domain's or an address's WHOIS and RDAP records",
        querystring: Type.Object({ q: Type.Optional(Type.Unknown()) }),
        response: { 200: WhoisResponse, ...ErrorAnswers },
      },
    },
    async (request, reply) => {
      const q = typeof request.query.q === 'string' ? request.query.q.trim() : '';
      if (!q) throw new HttpError(400, NO_QUERY);
      const deadline = new Deadline(app.config.UPSTREAM_TIMEOUT_MS);
      if (isIp(q)) {
        if (!isPublicIp(q)) throw new HttpError(400, NOT_PUBLIC);
        const ip = ipaddr.parse(q).toString();
        return cacheable(
          reply,
          await answers.run(`ip ${ip}`, WHOIS_TTL * 1000, () => lookupIp(ip, deadline, request), isPartial),
        );
      }
      const domain = normaliseDomain(q);
      if (!domain) throw new HttpError(400, INVALID_QUERY);
      return cacheable(
        reply,
        await answers.run(
          `domain ${domain}`,
          WHOIS_TTL * 1000,
          () => lookupDomain(domain, deadline, request),
          isPartial,
        ),
      );
    },
  );
};

export default whois;
export { examples } from './examples.js';
