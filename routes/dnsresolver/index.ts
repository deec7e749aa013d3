import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resolver } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { APP_ROOT } from '../../lib/app-root.js';
import { guarded, type DnsRecordType } from '../../schemas/guards.js';
import { TYPE_CODES, fromDoh, fromNode } from './normalise.js';

/** One resolver of the data file: a plain-DNS server (`ip` or `ip:port`) or a DNS-over-HTTPS JSON endpoint. */
export type ResolverSpec = { name: string; kind: 'dns'; server: string } | { name: string; kind: 'doh'; url: string };

const RESOLVERS_FILE = join(APP_ROOT, 'routes', 'dnsresolver', 'resolvers.json');

export function loadResolvers(file = RESOLVERS_FILE): ResolverSpec[] {
  const list: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(list) || list.length === 0 || !list.every(isResolverSpec)) throw new Error(`${file}: not a list of resolvers`);
  return list;
}

function isResolverSpec(value: unknown): value is ResolverSpec {
  if (typeof value !== 'object' || value === null) return false;
  const spec = value as Record<string, unknown>;
  if (typeof spec.name !== 'string' || !spec.name) return false;
  if (spec.kind === 'dns') return typeof spec.server === 'string' && spec.server !== '';
  return spec.kind === 'doh' && typeof spec.url === 'string' && /^https:\/\/[^/?#]+\/[^?#]*$/.test(spec.url);
}

const ResolverResult = Type.Object({
  resolver: Type.String(),
  kind: Type.Union([Type.Literal('dns'), Type.Literal('doh')]),
  server: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  answers: Type.Array(Type.String()),
  ttl: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  ms: Type.Integer(),
});
type ResolverResult = Static<typeof ResolverResult>;

const DnsResolverAnswer = Type.Object({
  hostname: Type.String(),
  type: Type.String(),
  results: Type.Array(ResolverResult),
});

type Outcome = { answers: string[]; ttl?: number } | { error: string };

const RCODES: Record<number, string> = { 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED' };

// node:dns error codes, as the DNS answer they stand for.
const NODE_ERRORS: Record<string, string> = {
  ENOTFOUND: 'NXDOMAIN',
  ESERVFAIL: 'SERVFAIL',
  EREFUSED: 'REFUSED',
  ENOTIMP: 'NOTIMP',
  EFORMERR: 'FORMERR',
  ETIMEOUT: 'Timeout',
  ECONNREFUSED: 'Unreachable',
};

const minTtl = (ttls: number[]) => (ttls.length ? Math.min(...ttls) : undefined);

export interface DnsResolverOptions {
  /** The resolvers to compare; routes/dnsresolver/resolvers.json when absent. */
  resolvers?: ResolverSpec[];
}

/**
 * GET /api/dnsresolver?hostname=&type=: the same question to every resolver
 * of the data file at once, each bounded by the upstream timeout, each
 * failure kept to its own entry. Resolver addresses come only from the data
 * file; the caller chooses the name and the type asked.
 */
const dnsresolver: FastifyPluginAsyncTypebox<DnsResolverOptions> = async (app, options) => {
  const resolvers = options.resolvers ?? loadResolvers();
  const timeoutMs = app.config.UPSTREAM_TIMEOUT_MS;
  const override = app.config.DNS_OVERRIDE_SERVER;

  // One Resolver per server for the plugin's life: a c-ares channel per
  // request would cost more than the loopback-fast queries it serves.
  const channels = new Map<string, Resolver>();
  function channel(server: string): Resolver {
    let resolver = channels.get(server);
    if (!resolver) {
      resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      resolver.setServers([override || server]);
      channels.set(server, resolver);
    }
    return resolver;
  }
  app.addHook('onClose', async () => {
    for (const resolver of channels.values()) resolver.cancel();
  });

  async function query(server: string, hostname: string, type: DnsRecordType): Promise<Outcome> {
    const resolver = channel(server);
    if (type === 'A' || type === 'AAAA') {
      const records = await (type === 'A' ? resolver.resolve4(hostname, { ttl: true }) : resolver.resolve6(hostname, { ttl: true }));
      return { answers: fromNode(type, records), ttl: minTtl(records.map((r) => r.ttl)) };
    }
    return { answers: fromNode(type, await resolver.resolve(hostname, type)) };
  }

  async function plain(server: string, hostname: string, type: DnsRecordType): Promise<Outcome> {
    let deadline: NodeJS.Timeout | undefined;
    // c-ares rounds its own timer; the deadline is ours to keep. A shared
    // channel cannot be cancelled for one query, so the race ends it for us
    // and c-ares drops the query at its own timeout.
    const timedOut = new Promise<Outcome>((resolve) => {
      deadline = setTimeout(() => resolve({ error: 'Timeout' }), timeoutMs);
    });
    try {
      return await Promise.race([query(server, hostname, type), timedOut]);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENODATA') return { answers: [] };
      return { error: NODE_ERRORS[code] ?? (code || 'Resolver failed') };
    } finally {
      clearTimeout(deadline);
    }
  }

  async function doh(url: string, hostname: string, type: DnsRecordType): Promise<Outcome> {
    const params = new URLSearchParams({ name: hostname, type });
    try {
      const { status, text } = await app.upstream.text(`${url}?${params}`, { headers: { accept: 'application/dns-json' } });
      if (status !== 200) return { error: `HTTP ${status}` };
      let data: { Status?: unknown; Answer?: unknown };
      try {
        data = JSON.parse(text) as typeof data;
      } catch {
        return { error: 'Malformed answer' };
      }
      if (typeof data !== 'object' || data === null || typeof data.Status !== 'number') return { error: 'Malformed answer' };
      if (data.Status !== 0) return { error: RCODES[data.Status] ?? `RCODE ${data.Status}` };
      const records = (Array.isArray(data.Answer) ? data.Answer : []).filter(
        (a): a is { type: number; data: string; TTL?: unknown } =>
          typeof a === 'object' && a !== null && a.type === TYPE_CODES[type] && typeof a.data === 'string',
      );
      return {
        answers: records.map((r) => fromDoh(type, r.data)),
        ttl: minTtl(records.map((r) => r.TTL).filter((t): t is number => Number.isInteger(t))),
      };
    } catch (err) {
      return { error: (err as Error).name === 'AbortError' ? 'Timeout' : 'Unreachable' };
    }
  }

  async function ask(spec: ResolverSpec, hostname: string, type: DnsRecordType): Promise<ResolverResult> {
    const started = performance.now();
    const outcome = spec.kind === 'dns' ? await plain(spec.server, hostname, type) : await doh(spec.url, hostname, type);
    const base = { resolver: spec.name, kind: spec.kind, server: spec.kind === 'dns' ? spec.server : spec.url };
    const ms = Math.round(performance.now() - started);
    if ('error' in outcome) return { ...base, status: 'error', answers: [], error: outcome.error, ms };
    return { ...base, status: 'ok', answers: outcome.answers, ...(outcome.ttl !== undefined && { ttl: outcome.ttl }), ms };
  }

  app.get(
    '/dnsresolver',
    {
      schema: {
        querystring: Type.Object({ hostname: guarded('domain'), type: guarded('recordType') }),
        response: { 200: DnsResolverAnswer },
      },
    },
    async (request) => {
      // The guards have checked and normalised both (see schemas/guards.ts).
      const hostname = request.query.hostname as string;
      const type = request.query.type as DnsRecordType;
      const results = await Promise.all(resolvers.map((spec) => ask(spec, hostname, type)));
      return { hostname, type, results };
    },
  );
};

export default dnsresolver;
