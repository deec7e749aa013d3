import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { guarded, type Guard } from '../../schemas/guarded.js';
import { UpstreamFailure } from '../../lib/upstream-failure.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { nonEmptyString } from '../../lib/json-values.js';
import { MacAnswer, NOT_AVAILABLE, type MacVendor } from '../../contract/macchecker.js';

const NO_MAC = 'No MAC address provided';
const INVALID_MAC = 'Invalid MAC address';
const NO_DATA = 'Data not found';
const THIRTY_DAYS = 30 * 24 * 60 * 60;

// Separators are stripped first, so `aa:bb-cc…` passes; what remains must be
// exactly twelve hex digits, which also keeps anything but hex out of the URL.
const macAddressGuard: Guard = {
  missing: NO_MAC,
  invalid: INVALID_MAC,
  check: (value) => {
    const bare = value.replace(/[:-]/g, '');
    return /^[0-9A-Fa-f]{12}$/.test(bare) ? bare.toUpperCase() : { error: INVALID_MAC };
  },
};

const orNotAvailable = (v: unknown) => nonEmptyString(v) ?? NOT_AVAILABLE;
const hexPairs = (v: unknown) =>
  typeof v === 'string' && /^[0-9A-Fa-f]+$/.test(v)
    ? v
        .toUpperCase()
        .match(/.{1,2}/g)!
        .join(':')
    : NOT_AVAILABLE;
const flag = (v: unknown) => v === true;
const address = (v: unknown) => (typeof v === 'string' && /^[0-9A-Fa-f]{12}$/.test(v) ? parseInt(v, 16) : null);

/**
 * How many addresses the block holds, counted from its bounds: the provider's
 * own `blockSize` is the last address minus the first (16,777,215 for a 24-bit
 * block), one short of the block. 48-bit addresses are exact in a double.
 */
function blockSize(start: unknown, end: unknown): number | typeof NOT_AVAILABLE {
  const first = address(start);
  const last = address(end);
  return first === null || last === null || last < first ? NOT_AVAILABLE : last - first + 1;
}

/** maclookup.app's v2 answer as the site reads it: colon pairs, "N/A" for what is missing, the address bits of the first octet. */
export function normalise(mac: string, data: Record<string, unknown>): MacVendor {
  // The bits belong to the address asked about, so they hold for an unregistered prefix too.
  const firstOctet = parseInt(mac.slice(0, 2), 16);
  const isMulticast = (firstOctet & 1) === 1;
  const isLocal = (firstOctet & 2) === 2;
  return {
    success: true,
    found: data.found === true,
    mac: hexPairs(mac),
    macPrefix: hexPairs(data.macPrefix),
    company: orNotAvailable(data.company),
    address: orNotAvailable(data.address),
    country:
      typeof data.country === 'string' && /^[A-Za-z]{2}$/.test(data.country)
        ? data.country.toUpperCase()
        : NOT_AVAILABLE,
    blockStart: hexPairs(data.blockStart),
    blockEnd: hexPairs(data.blockEnd),
    blockSize: blockSize(data.blockStart, data.blockEnd),
    blockType: orNotAvailable(data.blockType),
    updated: orNotAvailable(data.updated),
    isRand: flag(data.isRand),
    isPrivate: flag(data.isPrivate),
    isMulticast,
    isUnicast: !isMulticast,
    isLocal,
    isGlobal: !isLocal,
  };
}

/** A vendor found: the only answer kept for long (a rate limit or a miss is not). */
const isFound = (data: unknown) =>
  typeof data === 'object' && data !== null && (data as Record<string, unknown>).success === true;

/** GET /api/macchecker: IEEE OUI vendor of a MAC address through maclookup.app. */
const macchecker: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/macchecker',
    {
      schema: {
        summary: "A MAC address's vendor and what its bits say",
        querystring: Type.Object({ mac: guarded(macAddressGuard) }),
        response: { 200: MacAnswer, 400: ErrorBody, 502: ErrorBody },
      },
    },
    async (request, reply) => {
      const { mac } = request.query;
      const key = app.config.MAC_LOOKUP_API_KEY;
      const url = `https://api.maclookup.app/v2/macs/${mac}${key ? `?${new URLSearchParams({ apiKey: key })}` : ''}`;
      let data: unknown;
      try {
        // Any status: maclookup.app explains its own failures (its 429 included) in a JSON body with success false.
        data = (await app.upstream.json<unknown>(url, { keepForMs: THIRTY_DAYS * 1000, keepIf: isFound })).data;
      } catch (err) {
        throw new UpstreamFailure('unusable', 'MAC vendor lookup failed', { err });
      }
      if (typeof data !== 'object' || data === null || Array.isArray(data)) {
        throw new UpstreamFailure('unusable', 'maclookup.app answered JSON that is not an object');
      }
      const body = data as Record<string, unknown>;
      if (body.success !== true) {
        request.logUpstreamFailure({ upstreamError: body.error }, 'maclookup.app answered without success');
        // Uncached (the no-store default): a rate limit must not stick for 30 days.
        return { success: false as const, error: nonEmptyString(body.error) ?? NO_DATA };
      }
      reply.header('cache-control', `public, max-age=${THIRTY_DAYS}`);
      return normalise(mac, body);
    },
  );
};

export default macchecker;
export { examples, upstreamAnswers } from './examples.js';
