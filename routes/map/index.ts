import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { guarded, type Guard } from '../../schemas/guarded.js';
import { pickKey } from '../../lib/keys.js';
import { ApiKeyMissing } from '../../lib/private-api.js';
import { UpstreamFailure } from '../../lib/upstream-failure.js';
import { ErrorBody } from '../../schemas/error-body.js';

const ONE_YEAR = 365 * 24 * 60 * 60;
// What Static Maps sends: the JPEG we ask for (`format=jpg`), and PNG, its default
// format. Matched on the media type alone, so no other type (SVG with its scripts,
// HTML) reaches the site's origin with a one-year public cache.
const RASTER_TYPES = new Set(['image/jpeg', 'image/png']);
// A 640×320 map at scale 2 is 100–300 KB; far past that, the answer is not a map.
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

// Plain decimal notation only: exponents, hex, `Infinity` and blanks never
// reach the upstream URL; the number is re-printed from its parsed value.
const DECIMAL = /^[+-]?\d{1,3}(?:\.\d{1,15})?$/;

function coordinate(limit: number, invalid: string) {
  return (value: string) => {
    const n = DECIMAL.test(value) ? Number(value) : NaN;
    return Number.isFinite(n) && Math.abs(n) <= limit ? String(n) : { error: invalid };
  };
}

const latitudeGuard: Guard = {
  missing: 'No latitude provided',
  invalid: 'Invalid latitude',
  check: coordinate(90, 'Invalid latitude'),
};
const longitudeGuard: Guard = {
  missing: 'No longitude provided',
  invalid: 'Invalid longitude',
  check: coordinate(180, 'Invalid longitude'),
};
const languageGuard: Guard = {
  missing: 'No language provided',
  invalid: 'Invalid language',
  check: (value) => (/^[A-Za-z]{2}$/.test(value) ? value.toLowerCase() : { error: 'Invalid language' }),
};

// Google's documented night-mode palette, one `style=` parameter per rule.
export const DARK_STYLE = [
  'element:geometry|color:0x242f3e',
  'element:labels.text.stroke|color:0x242f3e',
  'element:labels.text.fill|color:0x746855',
  'feature:administrative.locality|element:labels.text.fill|color:0xd59563',
  'feature:poi|element:labels.text.fill|color:0xd59563',
  'feature:poi.park|element:geometry|color:0x263c3f',
  'feature:poi.park|element:labels.text.fill|color:0x6b9a76',
  'feature:road|element:geometry|color:0x38414e',
  'feature:road|element:geometry.stroke|color:0x212a37',
  'feature:road|element:labels.text.fill|color:0x9ca5b3',
  'feature:road.highway|element:geometry|color:0x746855',
  'feature:road.highway|element:geometry.stroke|color:0x1f2835',
  'feature:road.highway|element:labels.text.fill|color:0xf3d19c',
  'feature:transit|element:geometry|color:0x2f3948',
  'feature:transit.station|element:labels.text.fill|color:0xd59563',
  'feature:water|element:geometry|color:0x17263c',
  'feature:water|element:labels.text.fill|color:0x515c6d',
  'feature:water|element:labels.text.stroke|color:0x17263c',
];

/** A Content-Type's media type, lower-cased and without parameters; empty when there is none. */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** The fixed Static Maps URL; the caller only chooses the values of center, markers, language and the style set. */
function staticMapUrl(latitude: string, longitude: string, language: string, dark: boolean, key: string): string {
  const params = new URLSearchParams({
    center: `${latitude},${longitude}`,
    markers: `color:blue|${latitude},${longitude}`,
    // The site rounds coordinates to 0.1°, which is under a pixel only at a world-scale zoom like 3.
    zoom: '3',
    size: '640x320',
    scale: '2',
    maptype: 'roadmap',
    language,
    format: 'jpg',
  });
  if (dark) for (const rule of DARK_STYLE) params.append('style', rule);
  params.set('key', key);
  return `https://maps.googleapis.com/maps/api/staticmap?${params}`;
}

/**
 * GET /api/map: a Google Static Maps JPEG around a point. The image is read
 * whole (capped) before anything is sent, so only a complete image, and only
 * a JPEG or PNG, goes out with the one-year cache; anything else is an upstream error.
 */
const map: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/map',
    {
      schema: {
        summary: 'A map image around a point',
        querystring: Type.Object({
          latitude: guarded(latitudeGuard),
          longitude: guarded(longitudeGuard),
          language: guarded(languageGuard),
          CanvasMode: Type.Optional(Type.String({ maxLength: 16 })),
        }),
        response: {
          200: Type.Unknown({ description: 'the upstream image bytes' }),
          400: ErrorBody,
          500: ErrorBody,
          502: ErrorBody,
        },
      },
      config: { cacheTtl: ONE_YEAR },
    },
    async (request, reply) => {
      const key = pickKey(app.config.MAP_API_KEY);
      if (!key) throw new ApiKeyMissing();
      const { latitude, longitude, language, CanvasMode } = request.query;
      let upstream;
      try {
        upstream = await app.upstream.bytes(staticMapUrl(latitude, longitude, language, CanvasMode === 'Dark', key), {
          maxBytes: MAX_IMAGE_BYTES,
          keepForMs: ONE_YEAR * 1000,
          keepIf: (_data, answer) => RASTER_TYPES.has(mediaType(answer.headers['content-type'])),
          keepHeaders: ['content-type'],
          shareAs: staticMapUrl(latitude, longitude, language, CanvasMode === 'Dark', ''),
        });
      } catch (err) {
        throw UpstreamFailure.of(err, 'static map fetch failed');
      }
      const contentType = upstream.headers['content-type'];
      const type = mediaType(contentType);
      if (upstream.status < 200 || upstream.status >= 300 || !RASTER_TYPES.has(type)) {
        throw new UpstreamFailure('unusable', 'static map upstream answered no JPEG or PNG image', {
          status: upstream.status,
          contentType,
        });
      }
      // Sent as the type it was checked as, and never sniffed by a browser into anything else.
      return reply.header('content-type', type).header('x-content-type-options', 'nosniff').send(upstream.bytes);
    },
  );
};

export default map;
export { examples, upstreamAnswers } from './examples.js';
