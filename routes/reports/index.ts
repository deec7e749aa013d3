import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { guarded } from '../../schemas/guards.js';
import { reportSharingConfigured } from './configured.js';
import { Report, reportErrors, checkReportRequest } from './schema.js';
import { ReportStore } from './store.js';
import { ErrorBody } from '../../schemas/error-body.js';

export const MAX_REPORT_BYTES = 256 * 1024;
const TTL_DAYS = [1, 3, 7] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

const NOT_CONFIGURED = 'Report sharing is not configured';
const INVALID_REPORT = 'Invalid report';
const REPORT_TOO_LARGE = 'Report too large';
const REPORT_NOT_FOUND = 'Report not found';

const InvalidBody = Type.Object({
  error: Type.Literal(INVALID_REPORT),
  details: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
});

/** `ttlDays` is 1, 3 or 7; anything else, a string "3" included, silently becomes 1. */
export function normaliseTtlDays(value: unknown): number {
  return (TTL_DAYS as readonly unknown[]).includes(value) ? (value as number) : 1;
}

/** 16 random bytes as 22 base64url characters. */
function newReportId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * POST /api/report and GET /api/report/:id: shareable reports in the
 * key-value store, expiring on their own. Both answer 503 on a deployment
 * without the three store settings, before looking at the request body.
 */
const reports: FastifyPluginAsyncTypebox = async (app) => {
  const configured = reportSharingConfigured(app.config);
  const store = new ReportStore(app.upstream, app.config);

  // The body is checked in the handler with TypeBox rather than by Fastify's
  // Ajv, which would strip unknown keys and coerce types instead of rejecting them.
  app.post(
    '/report',
    {
      schema: {
        response: {
          201: Type.Object({ id: Type.String(), expiresAt: Type.String() }),
          400: Type.Union([InvalidBody, ErrorBody]),
          413: ErrorBody,
          502: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      if (!configured) return reply.code(503).send({ error: NOT_CONFIGURED });
      const body = request.body as { report?: unknown; ttlDays?: unknown } | null | undefined;
      const serialised = JSON.stringify(body?.report);
      if (serialised !== undefined && Buffer.byteLength(serialised) > MAX_REPORT_BYTES) {
        return reply.code(413).send({ error: REPORT_TOO_LARGE });
      }
      if (!checkReportRequest.Check(body)) {
        return reply.code(400).send({ error: INVALID_REPORT, details: reportErrors(body) });
      }
      const ttlDays = normaliseTtlDays(body.ttlDays);
      const id = newReportId();
      const expiresAt = new Date(Date.now() + ttlDays * DAY_MS).toISOString();
      await store.put(id, { report: body.report, expiresAt }, ttlDays * 24 * 60 * 60);
      return reply.code(201).send({ id, expiresAt });
    },
  );

  app.get(
    '/report/:id',
    {
      schema: {
        params: Type.Object({ id: guarded('reportId') }),
        response: {
          200: Type.Object({ report: Report, expiresAt: Type.String() }),
          404: ErrorBody,
          502: ErrorBody,
          503: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      if (!configured) return reply.code(503).send({ error: NOT_CONFIGURED });
      const stored = await store.get(request.params.id as string);
      if (!stored) return reply.code(404).send({ error: REPORT_NOT_FOUND });
      return { report: stored.report as Report, expiresAt: stored.expiresAt };
    },
  );
};

export default reports;
