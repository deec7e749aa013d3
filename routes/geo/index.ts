import { join } from 'node:path';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fromAppRoot } from '../../lib/app-root.js';
import { guarded } from '../../schemas/guarded.js';
import { publicIpGuard } from '../../schemas/guards.js';
import { GeoDatabases } from '../../datasets/geo/databases.js';
import { forwardedLang, normaliseLang } from './lang.js';
import { GeoRecord, GeoRecordFields, type GeoBase } from './normalise.js';
import { ipApi, ip2location, ipSb, ipapiIs, ipinfo, localLookup, privateIpinfo } from './sources.js';
import { timezoneAt, warmTimezones } from './timezone.js';
import { AdvancedData } from './advanced-data.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { withUpstreamReason } from '../../lib/http-error.js';

const DATABASE_NOT_LOADED = 'Geolocation database is not loaded';

/** The start-up step that downloads what is missing, loads both databases and warms the timezone lookup. */
export const GEO_DATABASES_STEP = 'geo databases';

const ONE_DAY = 24 * 60 * 60;
const errors = { 400: ErrorBody, 500: ErrorBody, 503: ErrorBody };
// `lang` takes any value, repeated or absurd: geo-local normalises it, the others forward it.
const Lang = Type.Optional(Type.Unsafe<unknown>({}));
const IpQuery = Type.Object({ ip: guarded(publicIpGuard) });
const IpLangQuery = Type.Object({ ip: guarded(publicIpGuard), lang: Lang });

const PrivateRecord = Type.Object({ ...GeoRecordFields, advancedData: AdvancedData });
const KeyedBRecord = Type.Object({ ...GeoRecordFields, isHosting: Type.Boolean(), isProxy: Type.Boolean() });

// The spec's answer to a failed source: 500 with the failure's own message.
const sourceFailed = withUpstreamReason('geo source failed');

/** Appends the timezone found at the record's own coordinates (only ever on a success). */
async function withTimezone<T extends GeoBase>(base: T): Promise<T & { timezone: string | null }> {
  // Added in place: an object spread followed by a property takes V8's slow
  // path, which cost more than the rest of a geo-local lookup.
  const record = base as T & { timezone: string | null };
  record.timezone = await timezoneAt(base.latitude, base.longitude);
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
      accountId: app.config.GEODB_ACCOUNT_ID,
      licenseKey: app.config.GEODB_LICENSE_KEY,
      logger: app.log,
      signal: app.lifecycle.stopping,
    });
  app.lifecycle.addStep({
    phase: 'geo-databases',
    name: GEO_DATABASES_STEP,
    run: async () => {
      await databases.bootstrap();
      await warmTimezones();
    },
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

  const cached = { cacheTtl: ONE_DAY };

  app.get(
    '/geo-keyed-a',
    { schema: { querystring: IpQuery, response: { 200: GeoRecord, ...errors } }, config: cached },
    async (request) => withTimezone(await ipinfo(app, request.query.ip).catch(sourceFailed)),
  );

  app.get(
    '/geo-free-a',
    { schema: { querystring: IpLangQuery, response: { 200: GeoRecord, ...errors } }, config: cached },
    async (request) =>
      withTimezone(await ipApi(app, request.query.ip, forwardedLang(request.query.lang)).catch(sourceFailed)),
  );

  app.get(
    '/geo-free-b',
    { schema: { querystring: IpQuery, response: { 200: GeoRecord, ...errors } }, config: cached },
    async (request) => withTimezone(await ipSb(app, request.query.ip).catch(sourceFailed)),
  );

  app.get(
    '/geo-keyed-b',
    { schema: { querystring: IpQuery, response: { 200: KeyedBRecord, ...errors } }, config: cached },
    async (request) => withTimezone(await ipapiIs(app, request.query.ip).catch(sourceFailed)),
  );

  app.get(
    '/geo-keyed-c',
    { schema: { querystring: IpQuery, response: { 200: GeoRecord, ...errors } }, config: cached },
    async (request) => withTimezone(await ip2location(app, request.query.ip).catch(sourceFailed)),
  );

  // Not an async function: returning withTimezone's promise as it is spares the
  // extra promise (and the two microtasks of adopting one) an async wrapper costs.
  app.get(
    '/geo-local',
    { schema: { querystring: IpLangQuery, response: { 200: GeoRecord, ...errors } }, config: cached },
    (request, reply) => {
      const city = databases.city;
      if (!city) return void reply.code(503).send({ error: DATABASE_NOT_LOADED });
      return withTimezone(localLookup(databases, city, request.query.ip, normaliseLang(request.query.lang)));
    },
  );

  app.get(
    '/geo-private',
    { schema: { querystring: IpLangQuery, response: { 200: PrivateRecord, ...errors } } },
    async (request) =>
      withTimezone(
        await privateIpinfo(app, request, request.query.ip, forwardedLang(request.query.lang)).catch(sourceFailed),
      ),
  );
};

export default geo;
export { examples } from './examples.js';
