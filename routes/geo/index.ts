import { Type, type FastifyPluginAsyncTypebox, type Static, type TObject } from '@fastify/type-provider-typebox';
import { guarded } from '../../schemas/guarded.js';
import { publicIpGuard } from '../../schemas/guards.js';
import { forwardedLang, normaliseLang } from './lang.js';
import type { GeoBase } from './normalise.js';
import { GeoRecord, KeyedBRecord, PrivateRecord } from '../../contract/geo.js';
import { ipApi, ip2location, ipSb, ipapiIs, ipinfo, localLookup, ONE_DAY, privateIpinfo } from './sources.js';
import { timezoneAt } from './timezone.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { UpstreamFailure } from '../../lib/upstream-failure.js';

const DATABASE_NOT_LOADED = 'Geolocation database is not loaded';

const errors = { 400: ErrorBody, 500: ErrorBody, 503: ErrorBody };
// `lang` takes any value, repeated or absurd: geo-local normalises it, the others forward it.
const Lang = Type.Optional(Type.Unsafe<unknown>({}));
// Every route takes `lang`; those whose source has no language ignore it.
const IpLangQuery = Type.Object({ ip: guarded(publicIpGuard), lang: Lang });
type IpLang = Static<typeof IpLangQuery>;

// The spec's answer to a failed source: 500 with the failure's own message.
const sourceFailed = UpstreamFailure.withReason('geo source failed');

/** Appends the timezone found at the record's own coordinates (only ever on a success). */
function withTimezone<T extends GeoBase>(base: T): T & { timezone: string | null } {
  // Added in place: an object spread followed by a property takes V8's slow
  // path, which cost more than the rest of a geo-local lookup.
  const record = base as T & { timezone: string | null };
  record.timezone = timezoneAt(base.latitude, base.longitude);
  return record;
}

/** The seven geolocation routes; /geo-local reads the local databases the composition root handed the app. */
const geo: FastifyPluginAsyncTypebox = async (app) => {
  const databases = app.geoDatabases;

  const cached = { cacheTtl: ONE_DAY };

  // The five sources on a provider's API differ only in their lookup and record.
  const sources: Array<{ path: string; record: TObject; lookup: (query: IpLang) => Promise<GeoBase> }> = [
    { path: '/geo-keyed-a', record: GeoRecord, lookup: ({ ip }) => ipinfo(app, ip) },
    { path: '/geo-free-a', record: GeoRecord, lookup: ({ ip, lang }) => ipApi(app, ip, forwardedLang(lang)) },
    { path: '/geo-free-b', record: GeoRecord, lookup: ({ ip }) => ipSb(app, ip) },
    { path: '/geo-keyed-b', record: KeyedBRecord, lookup: ({ ip }) => ipapiIs(app, ip) },
    { path: '/geo-keyed-c', record: GeoRecord, lookup: ({ ip }) => ip2location(app, ip) },
  ];
  for (const { path, record, lookup } of sources) {
    app.get(
      path,
      {
        schema: {
          summary: "An address's location and network from one geolocation provider",
          querystring: IpLangQuery,
          response: { 200: record, ...errors },
        },
        config: cached,
      },
      async (request) => withTimezone(await lookup(request.query).catch(sourceFailed)),
    );
  }

  // Not an async function: the answer is ready at once, and an async wrapper
  // would cost a promise (and the two microtasks of adopting one).
  app.get(
    '/geo-local',
    {
      schema: {
        summary: "An address's location and network from the local databases",
        querystring: IpLangQuery,
        response: { 200: GeoRecord, ...errors },
      },
      config: cached,
    },
    (request, reply) => {
      const city = databases.city;
      if (!city) return void reply.code(503).send({ error: DATABASE_NOT_LOADED });
      return localLookup(databases, city, request.query.ip, normaliseLang(request.query.lang));
    },
  );

  app.get(
    '/geo-private',
    {
      schema: {
        summary: "An address's location, network and proxy verdict from the private companion API",
        querystring: IpLangQuery,
        response: { 200: PrivateRecord, ...errors },
      },
    },
    async (request) =>
      withTimezone(
        await privateIpinfo(app, request, request.query.ip, forwardedLang(request.query.lang)).catch(sourceFailed),
      ),
  );
};

export default geo;
export { examples } from './examples.js';
