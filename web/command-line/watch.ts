import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { clientIp } from '../../lib/client-ip.js';
import { HttpError, INTERNAL_ERROR } from '../../lib/http-error.js';
import type { GeoDatabases } from '../../datasets/geo/databases.js';
import { redactUrl } from '../../lib/logger.js';
import type { LimitCheck } from '../../plugins/rate-limit.js';
import type { Placed, Seen } from '../../routes/watch/record.js';
import { isWatchToken, INVALID_WATCH_TOKEN } from '../../routes/watch/token.js';
import { WATCH_NOT_CONFIGURED, type Watches } from '../../routes/watch/watches.js';
import type { Answer } from './answer.js';
import { commandLineFormat, type Format } from './client.js';
import { networkFor, placeFor } from './local-record.js';
import { sendAnswer } from './send-answer.js';
import { underLimit } from './under-limit.js';

export interface WatchFaceOptions {
  watches: Watches;
  /** The local databases the recorded network and country come from. */
  databases: GeoDatabases;
  /** The global limiter's check in the face's context; absent while SECURITY_RATE_LIMIT is 0. */
  globalLimit: LimitCheck | undefined;
  site: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

const TOO_MANY = 'Too Many Requests';

/** What each outcome prints after the address. */
const WORDS: Record<Seen, string> = { first: 'first seen', changed: 'changed', unchanged: 'unchanged' };

const oneLine = Type.String({ description: 'One line: the address, then `first seen`, `changed` or `unchanged`' });
const WatchJson = Type.Object({ ip: Type.String(), changed: Type.Boolean(), first: Type.Boolean() });
const errorLine = (description: string) => ({
  description,
  content: {
    'text/plain': { schema: Type.String() },
    'application/json': { schema: Type.Object({ error: Type.String() }) },
  },
});

function answer(format: Format, status: number, text: string, json: object): Answer {
  return format === 'json'
    ? { status, json: true, body: `${JSON.stringify(json)}\n` }
    : { status, json: false, body: `${text}\n` };
}

const failure = (format: Format, status: number, error: string) => answer(format, status, error, { error });

/** The caller's address with its network and country from the local databases (null where they hold none). */
function placed(address: string, databases: GeoDatabases): Placed {
  const city = databases.city;
  const asn = databases.asn;
  const network = asn && networkFor(asn, address)?.fields;
  return {
    address,
    asn: network?.asn ?? null,
    network: network?.asn_org ?? null,
    country: (city && placeFor(city, address)?.fields.country_iso) ?? null,
  };
}

/**
 * `curl <site>/watch/<token>` (routes/watch/README.md): the line for cron
 * that records the caller's address in their watch when it changed, and says
 * which. The face's conventions: a command-line client gets one line (or
 * JSON when it asks for it), a browser the site; the global limiter counts it.
 */
const watchFace: FastifyPluginAsync<WatchFaceOptions> = async (app, { watches, databases, globalLimit, site }) => {
  app.route<{ Params: { token: string } }>({
    method: ['GET', 'HEAD'],
    url: '/watch/:token',
    schema: {
      tags: ['command-line'],
      summary: "Record the caller's address in an address watch when it changed; the address and whether it did",
      response: {
        200: {
          description: 'Recorded',
          content: { 'text/plain': { schema: oneLine }, 'application/json': { schema: WatchJson } },
        },
        400: errorLine('The token is not one this service makes: Invalid watch token'),
        404: errorLine('No such watch (never made, deleted or expired)'),
        429: errorLine('Over the global rate limit (SECURITY_RATE_LIMIT)'),
        500: errorLine('The store failed'),
        503: errorLine('No report store (REPORT_STORE)'),
      },
    },
    handler: async (request, reply) => {
      const format = commandLineFormat(request.headers);
      if (!format) return site(request, reply);
      const refusals = {
        tooMany: () => answer(format, 429, TOO_MANY, { message: TOO_MANY }),
        failed: () => failure(format, 500, INTERNAL_ERROR),
      };
      if (!(await underLimit(globalLimit, request, reply, refusals))) return;
      sendAnswer(reply.raw, await recorded(request, format, watches, databases));
    },
  });
};

async function recorded(
  request: FastifyRequest<{ Params: { token: string } }>,
  format: Format,
  watches: Watches,
  databases: GeoDatabases,
) {
  const { token } = request.params;
  if (!isWatchToken(token)) return failure(format, 400, INVALID_WATCH_TOKEN);
  if (!watches.configured) return failure(format, 503, WATCH_NOT_CONFIGURED);
  const address = clientIp(request);
  try {
    const seen = await watches.seen(token, placed(address, databases));
    return answer(format, 200, `${address} ${WORDS[seen]}`, {
      ip: address,
      changed: seen === 'changed',
      first: seen === 'first',
    });
  } catch (err) {
    if (err instanceof HttpError) {
      if (err.statusCode >= 500) request.log.warn({ reason: err.message }, 'an address watch could not be recorded');
      return failure(format, err.statusCode, err.message);
    }
    request.log.error({ err, url: redactUrl(request.url) }, 'request failed');
    return failure(format, 500, INTERNAL_ERROR);
  }
}

export default watchFace;
