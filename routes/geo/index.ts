import { join } from 'node:path';
import { Type, type FastifyPluginAsyncTypebox, type Static, type TObject } from '@fastify/type-provider-typebox';
import { fromAppRoot } from '../../lib/app-root.js';
import { guarded } from '../../schemas/guarded.js';
import { publicIpGuard } from '../../schemas/guards.js';
import { GeoDatabases } from '../../datasets/geo/databases.js';
import { forwardedLang, normaliseLang } from './lang.js';
import { GeoRecord, GeoRecordFields, type GeoBase } from './normalise.js';
import { ipApi, ip2location, ipSb, ipapiIs, ipinfo, localLookup, ONE_DAY, privateIpinfo } from './sources.js';
import { timezoneAt } from './timezone.js';
import { AdvancedData } from './advanced-data.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { withUpstreamReason } from '../../lib/http-error.js';

const DATABASE_NOT_LOADED = 'Geolocation database is not loaded';

/** The start-up step that downloads what is missing, loads both databases and warms the timezone lookup. */
export const GEO_DATABASES_STEP = 'geo databases';

const errors = { 400: ErrorBody, 500: ErrorBody, 503: ErrorBody };
// `lang` takes any value, repeated or absurd: geo-local normalises it, the others forward it.
const Lang = Type.Optional(Type.Unsafe<unknown>({}));
// Every route takes `lang`; those whose source has no language ignore it.
const IpLangQuery = Type.Object({ ip: guarded(publicIpGuard), lang: Lang });
type IpLang = Static<typeof IpLangQuery>;

const PrivateRecord = Type.Object({ ...GeoRecordFields, advancedData: AdvancedData });
const KeyedBRecord = Type.Object({ ...GeoRecordFields, isHosting: Type.Boolean(), isProxy: Type.Boolean() });

// The spec's answer to a failed source: 500 with the failure's own message.
const sourceFailed = withUpstreamReason('geo source failed');

/** Appends the timezone found at the record's own coordinates (only ever on a success). */
function withTimezone<T extends GeoBase>(base: T): T & { timezone: string | null } {
  // Added in place: an object spread followed by a property takes V8's slow
  // path, which cost more than the rest of a geo-local lookup.
  const record = base as T & { timezone: string | null };
  record.timezone = timezoneAt(base.latitude, base.longitude);
  return record;
}

export interface GeoOptions {
  /** Databases made by the caller, who then drives them directly (the reload bench); by default made from the settings. */
  databases?: GeoDatabases;
}

/** The seven geolocation routes and the local databases' life cycle. */
const geo: FastifyPluginAsyncTypebox<GeoOptions> = async (app, options) => {
  const databases =
    options.databases ??
    new GeoDatabases({
      dir: join(fromAppRoot(app.config.DATA_DIR), 'geo'),
      upstream: app.upstream,
      provider: app.config.GEODB_PROVIDER,
      accountId: app.config.GEODB_ACCOUNT_ID,
      licenseKey: app.config.GEODB_LICENSE_KEY,
      logger: app.log,
      signal: app.lifecycle.stopping,
    });
  app.lifecycle.addStep({
    phase: 'geo-databases',
    name: GEO_DATABASES_STEP,
    run: () => databases.bootstrap(),
  });
  app.lifecycle.addStep({
    phase: 'background',
    name: 'geo database watcher and updater',
    run: async () => {
      databases.startWatcher();
      if (app.config.GEODB_AUTO_UPDATE) databases.startAutoUpdate();
    },
  });
  app.lifecycle.onStop('geo databases', () => databases.stop());
  app.readiness.addDataset('geoCity', () => databases.status('city'));
  app.readiness.addDataset('geoAsn', () => databases.status('asn'));
  app.lentToFront.geoDatabases = databases;

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
