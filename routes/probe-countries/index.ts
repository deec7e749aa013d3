import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { UPSTREAM_ERROR } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';

const Inventory = Type.Object({
  countries: Type.Array(Type.Object({ code: Type.String(), probes: Type.Integer() })),
  total: Type.Integer(),
});
type InventoryBody = Static<typeof Inventory>;

// The probe list is the one upstream answer past the 2 MiB default: about 3,000
// probes of half a kilobyte each, growing with the network.
const PROBE_LIST_MAX_BYTES = 8 * 1024 * 1024;

/** Probes per country (ISO code), most probes first; probes without a country code are left out. */
export function inventory(probes: unknown[]): InventoryBody {
  const counts = new Map<string, number>();
  for (const probe of probes) {
    const country = (probe as { location?: { country?: unknown } } | null)?.location?.country;
    if (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country)) continue;
    const code = country.toUpperCase();
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  const countries = [...counts].map(([code, n]) => ({ code, probes: n })).sort((a, b) => b.probes - a.probes || a.code.localeCompare(b.code));
  return { countries, total: countries.reduce((sum, c) => sum + c.probes, 0) };
}

/** GET /api/probe-countries: countries with online Globalping probes (the API lists online probes only). */
const probeCountries: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/probe-countries',
    { schema: { response: { 200: Inventory, 502: ErrorBody } }, config: { cacheTtl: 7 * 24 * 60 * 60 } },
    async (request, reply) => {
      try {
        const probes = await app.upstream.okJson<unknown>('https://api.globalping.io/v1/probes', { maxBytes: PROBE_LIST_MAX_BYTES });
        if (!Array.isArray(probes)) throw new Error('Globalping answered without a probe array');
        return inventory(probes);
      } catch (err) {
        request.log.warn({ err }, 'Globalping probe list failed');
        return reply.code(502).send({ error: UPSTREAM_ERROR });
      }
    },
  );
};

export default probeCountries;
