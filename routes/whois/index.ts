import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import ipaddr from 'ipaddr.js';
import { RdapBootstrap } from '../../datasets/rdap/bootstrap.js';
import { RootZoneTlds } from '../../datasets/tlds/root-zone-tlds.js';
import { isIp } from '../../lib/network/ip-address.js';
import { isPublicIp } from '../../lib/network/public-address.js';
import { normaliseDomain } from '../../lib/network/domain-name.js';
import { Deadline } from '../../lib/deadline.js';
import { ErrorAnswers } from '../../schemas/error-body.js';
import { HttpError } from '../../lib/http-error.js';
import { INVALID_QUERY, NO_QUERY, NOT_PUBLIC } from './answers.js';
import { whoisLookups } from './lookups.js';
import { WhoisResponse } from './schema.js';

export { NO_QUERY, INVALID_QUERY, NOT_PUBLIC, NOT_FOUND, LOOKUP_FAILED, noTldServer } from './answers.js';
export { TLD_CACHE_MAX } from './lookups.js';

/**
 * GET /api/whois?q=, in the shapes the site reads (docs/whois-dns.md): the
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

  const { lookupIp, lookupDomain } = whoisLookups({
    upstream: app.upstream,
    bootstrap,
    rootZone,
    timeoutMs: app.config.UPSTREAM_TIMEOUT_MS,
    override: app.config.WHOIS_OVERRIDE_SERVER || undefined,
  });

  app.get(
    '/whois',
    {
      schema: {
        querystring: Type.Object({ q: Type.Optional(Type.Unknown()) }),
        response: { 200: WhoisResponse, ...ErrorAnswers },
      },
      config: { cacheTtl: 24 * 60 * 60 },
    },
    async (request) => {
      const q = typeof request.query.q === 'string' ? request.query.q.trim() : '';
      if (!q) throw new HttpError(400, NO_QUERY);
      const deadline = new Deadline(app.config.UPSTREAM_TIMEOUT_MS);
      if (isIp(q)) {
        if (!isPublicIp(q)) throw new HttpError(400, NOT_PUBLIC);
        return lookupIp(ipaddr.parse(q).toString(), deadline, request.log);
      }
      const domain = normaliseDomain(q);
      if (!domain) throw new HttpError(400, INVALID_QUERY);
      return lookupDomain(domain, deadline, request.log);
    },
  );
};

export default whois;
export { examples } from './examples.js';
