import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { defineGuard, guarded } from '../../schemas/guards.js';
import { UPSTREAM_ERROR } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';

const NO_MAC = 'No MAC address provided';
const INVALID_MAC = 'Invalid MAC address';

// Separators are stripped first, so `aa:bb-cc…` passes; what remains must be
// exactly twelve hex digits, which also keeps anything but hex out of the URL.
defineGuard('macAddress', {
  missing: NO_MAC,
  invalid: INVALID_MAC,
  check: (value) => {
    const bare = value.replace(/[:-]/g, '');
    return /^[0-9A-Fa-f]{12}$/.test(bare) ? bare.toUpperCase() : { error: INVALID_MAC };
  },
});

const NullableString = Type.Union([Type.String(), Type.Null()]);
const Vendor = Type.Object({
  mac: Type.String(),
  found: Type.Boolean(),
  macPrefix: NullableString,
  company: NullableString,
  address: NullableString,
  country: NullableString,
  blockStart: NullableString,
  blockEnd: NullableString,
  blockSize: Type.Union([Type.Integer(), Type.Null()]),
  blockType: NullableString,
  isRand: Type.Union([Type.Boolean(), Type.Null()]),
  isPrivate: Type.Union([Type.Boolean(), Type.Null()]),
});
type VendorBody = Static<typeof Vendor>;

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const flag = (v: unknown) => (typeof v === 'boolean' ? v : null);

/** maclookup.app's v2 answer with its field names kept, empty strings and missing fields as null. */
export function normalise(mac: string, data: Record<string, unknown>): VendorBody {
  const found = data.found === true;
  return {
    mac: mac.match(/../g)!.join(':'),
    found,
    macPrefix: text(data.macPrefix),
    company: text(data.company),
    address: text(data.address),
    country: text(data.country),
    blockStart: text(data.blockStart),
    blockEnd: text(data.blockEnd),
    blockSize: typeof data.blockSize === 'number' && Number.isInteger(data.blockSize) ? data.blockSize : null,
    blockType: text(data.blockType),
    isRand: flag(data.isRand),
    isPrivate: flag(data.isPrivate),
  };
}

/** GET /api/macchecker: IEEE OUI vendor of a MAC address through maclookup.app. */
const macchecker: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/macchecker',
    {
      schema: {
        querystring: Type.Object({ mac: guarded('macAddress') }),
        response: { 200: Vendor, 400: ErrorBody, 502: ErrorBody },
      },
      config: { cacheTtl: 30 * 24 * 60 * 60 },
    },
    async (request, reply) => {
      const mac = request.query.mac as string;
      const key = app.config.MAC_LOOKUP_API_KEY;
      const url = `https://api.maclookup.app/v2/macs/${mac}${key ? `?${new URLSearchParams({ apiKey: key })}` : ''}`;
      try {
        const data = await app.upstream.okJson<unknown>(url);
        if (typeof data !== 'object' || data === null || (data as { success?: unknown }).success !== true) {
          throw new Error('maclookup.app answered without success');
        }
        return normalise(mac, data as Record<string, unknown>);
      } catch (err) {
        request.log.warn({ err }, 'MAC vendor lookup failed');
        return reply.code(502).send({ error: UPSTREAM_ERROR });
      }
    },
  );
};

export default macchecker;
