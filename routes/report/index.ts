import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { guarded } from '../../schemas/guarded.js';
import { reportIdGuard } from '../../schemas/guards.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { checkReport, Report, ReportCreated, StoredReport } from '../../contract/report.js';
import { MAX_DETAILS, reportProblems } from './details.js';
import { STORE_UNAVAILABLE, StoreRefusal } from './store.js';

export const MAX_REPORT_BYTES = 256 * 1024;
const TTL_DAYS = [1, 3, 7] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const REPORT_LIMIT_WINDOW_MS = 60 * 60 * 1000;

const NOT_CONFIGURED = 'Report sharing is not configured';
const INVALID_REPORT = 'Invalid report';
const REPORT_TOO_LARGE = 'Report too large';
const REPORT_NOT_FOUND = 'Report not found or expired';
const NOT_POST = ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const InvalidBody = Type.Object({
  error: Type.Literal(INVALID_REPORT),
  /** `<path>: <problem>`, e.g. `report.sections.ipinfo.cards[0].countryCode: expected 2-letter country code or empty string`. */
  details: Type.Array(Type.String(), { maxItems: MAX_DETAILS }),
});

/** What is stored under an id and answered by GET, as it was written. */

/** `ttlDays` is 1, 3 or 7; anything else, a string "3" included, silently becomes 1. */
export function normaliseTtlDays(value: unknown): number {
  return (TTL_DAYS as readonly unknown[]).includes(value) ? (value as number) : 1;
}

/** 16 random bytes as 22 base64url characters. */
function newReportId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * POST /api/report and GET /api/report/:id: shareable reports in the store
 * REPORT_STORE names, expiring on their own. Both answer 503 on a deployment
 * without the store's settings, before looking at the request. While the
 * chosen store takes no new reports, POST is answered its refusal (507 on a
 * full disk or a full Redis, routes/report/redis-store.ts) or 500, and GET
 * reads on as long as the store can; the outage, or the failure to open, was
 * logged once when it began. Storing has its own limit per client
 * (REPORT_RATE_LIMIT an hour; 0 is none), since every stored report stays on
 * the operator's bill or disk for up to 7 days.
 */
const reports: FastifyPluginAsyncTypebox = async (app) => {
  const store = app.reportStore;
  const perHour = app.config.REPORT_RATE_LIMIT;
  // Counted on arrival, so a refused client's body is never read.
  const limit = store && perHour > 0 ? app.routeLimiter('report', perHour, REPORT_LIMIT_WINDOW_MS) : undefined;

  // The report is checked in the handler with TypeBox rather than by Fastify's
  // Ajv, which would strip unknown keys and coerce types instead of rejecting
  // them, and which cannot run the whitelist's refinements.
  app.post(
    '/report',
    {
      onRequest: limit,
      schema: {
        summary: 'Store a report to share; its id and expiry',
        documentedBody: Type.Object({
          report: Report,
          ttlDays: Type.Optional(Type.Union(TTL_DAYS.map((days) => Type.Literal(days)))),
        }),
        response: {
          201: ReportCreated,
          400: Type.Union([InvalidBody, ErrorBody]),
          413: ErrorBody,
          500: ErrorBody,
          503: ErrorBody,
          507: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      if (!store) return reply.code(503).send({ error: NOT_CONFIGURED });
      if (!store.ready) {
        const refusal = store.refusal ?? new StoreRefusal(500, STORE_UNAVAILABLE);
        return reply.code(refusal.statusCode).send({ error: refusal.message });
      }
      const body = request.body as { report?: unknown; ttlDays?: unknown } | null | undefined;
      const report = typeof body === 'object' && body !== null ? body.report : undefined;
      if (!checkReport.Check(report)) {
        return reply.code(400).send({ error: INVALID_REPORT, details: reportProblems(report) });
      }
      // The size is judged on a valid report only, so a client learns first what is wrong with its content.
      if (Buffer.byteLength(JSON.stringify(report)) > MAX_REPORT_BYTES) {
        return reply.code(413).send({ error: REPORT_TOO_LARGE });
      }
      const ttlDays = normaliseTtlDays(body?.ttlDays);
      const id = newReportId();
      const expiresAt = new Date(Date.now() + ttlDays * DAY_MS).toISOString();
      try {
        await store.put(id, { expiresAt, report }, ttlDays * 24 * 60 * 60);
      } catch (err) {
        // Logged once by the store when its outage began, not per refused report.
        if (err instanceof StoreRefusal) return reply.code(err.statusCode).send({ error: err.message });
        throw err;
      }
      return reply.code(201).send({ id, expiresAt });
    },
  );

  app.route({
    method: [...NOT_POST],
    url: '/report',
    schema: { summary: 'Every method but POST: 405', response: { 405: ErrorBody } },
    handler: async (_request, reply) => reply.code(405).send({ error: 'Method Not Allowed' }),
  });

  app.get(
    '/report/:id',
    {
      schema: {
        summary: 'A shared report, as stored, until it expires',
        params: Type.Object({ id: guarded(reportIdGuard) }),
        response: { 200: StoredReport, 404: ErrorBody, 500: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!store) return reply.code(503).send({ error: NOT_CONFIGURED });
      if (!store.readable) return reply.code(500).send({ error: STORE_UNAVAILABLE });
      const stored = await store.get(request.params.id);
      if (!stored) return reply.code(404).send({ error: REPORT_NOT_FOUND });
      // A value written before the whitelist changed is one the page can no longer show.
      if (!checkReport.Check(stored.report)) {
        request.log.warn(
          { id: request.params.id },
          'stored report is outside the report whitelist; answered as not found',
        );
        return reply.code(404).send({ error: REPORT_NOT_FOUND });
      }
      return { expiresAt: stored.expiresAt, report: stored.report };
    },
  );
};

export default reports;
export { examples } from './examples.js';
