import { INTERNAL_ERROR } from '../../lib/http-error.js';
import type { GeoDatabases } from '../../datasets/geo/databases.js';
import type { Format } from './client.js';
import { jsonAnswer } from './json-answer.js';
import { networkFor, placeFor } from './local-record.js';
import type { FacePath } from './paths.js';
import { requestedAddress } from './requested-address.js';

/** One answer of the face, before it is written. */
export interface Answer {
  status: number;
  json: boolean;
  body: string;
}

const DATABASE_NOT_LOADED = 'Geolocation database is not loaded';

const line = (status: number, text: string): Answer => ({ status, json: false, body: `${text}\n` });

function failure(format: Format, status: number, error: string): Answer {
  return format === 'json' ? { status, json: true, body: `${JSON.stringify({ error })}\n` } : line(status, error);
}

const TOO_MANY = 'Too Many Requests';

// /json's errors are JSON whatever the Accept, for a script piping it to a JSON reader; the other paths follow it.
const formatOf = ({ printed }: FacePath, asked: Format): Format => (printed.kind === 'record' ? 'json' : asked);

/** Over the global limit: the spec's 429 body (`message`) for a JSON client, its words in a line for the others. */
export function tooManyRequests(path: FacePath, asked: Format): Answer {
  return formatOf(path, asked) === 'json'
    ? { status: 429, json: true, body: `${JSON.stringify({ message: TOO_MANY })}\n` }
    : line(429, TOO_MANY);
}

const NOT_FOUND = 'Not Found';

/** A path the face does not serve (nor the site, as a file): its 404 in the face's form, rather than the site's page. */
export function notServed(asked: Format): Answer {
  return failure(asked, 404, NOT_FOUND);
}

/** A failure of our own (a bug, a database that cannot be read): the service's fixed words, nothing of the cause. */
export function internalFailure(path: FacePath, asked: Format): Answer {
  return failure(formatOf(path, asked), 500, INTERNAL_ERROR);
}

/** The `ip` values of a query string as Fastify's parser gives them: absent, one string, or an array when repeated. */
export function ipParameter(url: string): unknown {
  const query = url.indexOf('?');
  if (query < 0) return undefined;
  const values = new URLSearchParams(url.slice(query + 1)).getAll('ip');
  return values.length > 1 ? values : values[0];
}

/**
 * What a path answers a command-line client (web/command-line/README.md): the
 * address asked about (`?ip=`, else the caller's), printed as the path says,
 * from the local databases only.
 */
export function answerFor(
  path: FacePath,
  asked: Format,
  ip: unknown,
  caller: string,
  userAgent: string | undefined,
  databases: GeoDatabases,
): Answer {
  const { printed } = path;
  const format = formatOf(path, asked);
  const address = requestedAddress(ip, caller);
  if (typeof address !== 'string') return failure(format, address.status, address.error);
  if (printed.kind === 'record' || (printed.kind === 'root' && format === 'json')) {
    const city = databases.city;
    const asn = databases.asn;
    return {
      status: 200,
      json: true,
      body: jsonAnswer(address, city && placeFor(city, address), asn && networkFor(asn, address), userAgent),
    };
  }
  if (printed.kind === 'root' || printed.kind === 'address') return line(200, address);
  let value: string | undefined;
  if (printed.kind === 'place') {
    const city = databases.city;
    if (!city) return failure(format, 503, DATABASE_NOT_LOADED);
    value = placeFor(city, address)?.fields[printed.field];
  } else {
    const asn = databases.asn;
    if (!asn) return failure(format, 503, DATABASE_NOT_LOADED);
    value = networkFor(asn, address)?.fields[printed.field];
  }
  return value === undefined ? failure(format, 404, `No ${printed.what} known for ${address}`) : line(200, value);
}
