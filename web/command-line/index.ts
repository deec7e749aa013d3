import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { clientIp } from '../../lib/client-ip.js';
import type { LentToFront } from '../../lib/lent-to-front.js';
import clientIpSlots from '../../plugins/client-ip.js';
import { TooManyRequests } from '../../plugins/rate-limit.js';
import { commandLineFormat, type Format } from './client.js';
import { jsonAnswer } from './json-answer.js';
import { networkFor, placeFor, type Network } from './local-record.js';
import { requestedAddress } from './requested-address.js';
import { AddressQuery, jsonAnswers, lineAnswers, rootAnswers } from './schemas.js';

export interface CommandLineOptions {
  /** The API's global limiter and local databases. */
  lent: LentToFront;
  /** Answers everyone else on the same paths: the site (its single-page-app fallback for a navigation). */
  site: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

const TAGS = ['command-line'];
const DATABASE_NOT_LOADED = 'Geolocation database is not loaded';
// Every answer is the caller's own and depends on how it asked.
const NO_STORE = 'no-store';
const VARY = 'User-Agent, Accept';
const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The paths that print one field of the record, as the ifconfig.co engine names them. */
const FIELDS: ReadonlyArray<{
  url: string;
  summary: string;
  what: string;
  field: { place: 'country' | 'country_iso' | 'city' } | { network: keyof Network };
}> = [
  { url: '/country', summary: "The address's country, in English", what: 'country', field: { place: 'country' } },
  {
    url: '/country-iso',
    summary: "The address's country as its ISO 3166-1 code",
    what: 'country code',
    field: { place: 'country_iso' },
  },
  { url: '/city', summary: "The address's city, in English", what: 'city', field: { place: 'city' } },
  { url: '/asn', summary: "The address's autonomous system, as AS15169", what: 'AS number', field: { network: 'asn' } },
  {
    url: '/asn-org',
    summary: "The name of the address's autonomous system's organisation",
    what: 'AS organisation',
    field: { network: 'asn_org' },
  },
];

type Field = (typeof FIELDS)[number]['field'];

/** One field of the address's record; undefined when the database holds none, null when it is not loaded. */
function fieldFor(lent: LentToFront, field: Field, ip: string): string | undefined | null {
  if ('place' in field) {
    const city = lent.geoDatabases?.city;
    return city ? (placeFor(city, ip)?.fields[field.place] as string | undefined) : null;
  }
  const asn = lent.geoDatabases?.asn;
  return asn ? networkFor(asn, ip)?.fields[field.network] : null;
}

/** Whether the face, not the site, answers this request: a command-line client on one of its paths. */
export function isCommandLineRequest(url: string, headers: IncomingHttpHeaders): boolean {
  const query = url.indexOf('?');
  return PATHS.has(query < 0 ? url : url.slice(0, query)) && commandLineFormat(headers) !== undefined;
}

const PATHS = new Set(['/', '/ip', '/json', ...FIELDS.map((f) => f.url)]);

function send(reply: FastifyReply, status: number, type: string, body: string) {
  return reply.code(status).header('cache-control', NO_STORE).header('vary', VARY).type(type).send(body);
}

function fail(reply: FastifyReply, format: Format, status: number, error: string) {
  return format === 'json'
    ? send(reply, status, JSON_TYPE, `${JSON.stringify({ error })}\n`)
    : send(reply, status, TEXT, `${error}\n`);
}

/**
 * The command-line face (docs/command-line.md): the paths of the ifconfig.co
 * engine, answered from the local databases only, for command-line clients;
 * a browser on the same paths gets the site. The API's global limiter counts
 * these requests as it counts /api's, under the same key.
 */
const commandLine: FastifyPluginAsync<CommandLineOptions> = async (app, { lent, site }) => {
  await app.register(clientIpSlots);

  /**
   * What every path does first: the site for a browser, then the limiter,
   * then the address asked about. Undefined when the request has been
   * answered (the site, a 429, a refused `?ip=`).
   */
  const begin = async (request: FastifyRequest, reply: FastifyReply, answersJson = false) => {
    const asked = commandLineFormat(request.headers);
    if (!asked) {
      await site(request, reply);
      return undefined;
    }
    // /json's errors are JSON too, whatever the Accept, for a script piping it to a JSON reader.
    const format = answersJson ? 'json' : asked;
    try {
      await lent.globalLimit?.(request, reply);
    } catch (err) {
      if (!(err instanceof TooManyRequests)) throw err;
      if (format === 'json') send(reply, 429, JSON_TYPE, `${JSON.stringify({ message: err.message })}\n`);
      else send(reply, 429, TEXT, `${err.message}\n`);
      return undefined;
    }
    const ip = requestedAddress((request.query as { ip?: unknown }).ip, clientIp(request));
    if (typeof ip !== 'string') {
      fail(reply, format, ip.status, ip.error);
      return undefined;
    }
    return { format, ip };
  };

  const json = (request: FastifyRequest, ip: string) => {
    const databases = lent.geoDatabases;
    const city = databases?.city;
    const asn = databases?.asn;
    return jsonAnswer(ip, city && placeFor(city, ip), asn && networkFor(asn, ip), request.headers['user-agent']);
  };

  const common = { method: ['GET', 'HEAD'] as Array<'GET' | 'HEAD'>, attachValidation: true };

  app.route({
    ...common,
    url: '/',
    schema: {
      tags: TAGS,
      summary: "The caller's address (or /json's answer, asked for as JSON)",
      querystring: AddressQuery,
      response: rootAnswers,
    },
    handler: async (request, reply) => {
      const asked = await begin(request, reply);
      if (!asked) return reply;
      if (asked.format === 'json') return send(reply, 200, JSON_TYPE, json(request, asked.ip));
      return send(reply, 200, TEXT, `${asked.ip}\n`);
    },
  });

  app.route({
    ...common,
    url: '/ip',
    schema: {
      tags: TAGS,
      summary: "The caller's address",
      querystring: AddressQuery,
      response: lineAnswers('The address'),
    },
    handler: async (request, reply) => {
      const asked = await begin(request, reply);
      if (!asked) return reply;
      return send(reply, 200, TEXT, `${asked.ip}\n`);
    },
  });

  app.route({
    ...common,
    url: '/json',
    schema: {
      tags: TAGS,
      summary: 'The address with its record from the local databases, as JSON',
      querystring: AddressQuery,
      response: jsonAnswers,
    },
    handler: async (request, reply) => {
      const asked = await begin(request, reply, true);
      if (!asked) return reply;
      return send(reply, 200, JSON_TYPE, json(request, asked.ip));
    },
  });

  for (const { url, summary, what, field } of FIELDS) {
    app.route({
      ...common,
      url,
      schema: { tags: TAGS, summary, querystring: AddressQuery, response: lineAnswers(summary) },
      handler: async (request, reply) => {
        const asked = await begin(request, reply);
        if (!asked) return reply;
        const value = fieldFor(lent, field, asked.ip);
        if (value === null) return fail(reply, asked.format, 503, DATABASE_NOT_LOADED);
        if (value === undefined) return fail(reply, asked.format, 404, `No ${what} known for ${asked.ip}`);
        return send(reply, 200, TEXT, `${value}\n`);
      },
    });
  }
};

export default commandLine;
