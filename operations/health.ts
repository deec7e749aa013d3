import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ReadinessReport, type Listener, type Readiness } from './readiness.js';

// What the public front listener says of readiness: the verdict alone; `degraded` is ready with a part not working.
const Verdict = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('not ready')]),
});

const Alive = Type.Object({ status: Type.Literal('ok') });

/**
 * GET /healthz (the process answers, so its event loop turns) and GET /readyz
 * (200 once both listeners listen, 503 before and from a SIGTERM on). The API listener is the
 * operator's (loopback), so its /readyz adds each dataset's state and age;
 * the front listener is public, so its /readyz gives only the verdict
 * (`degraded` while the report store has a problem), and never which
 * datasets a deployment has or how old they are. Registered
 * outside /api on both listeners: no Referer gate, limiter or load shedding
 * stands between a health check and its answer.
 */
const health: FastifyPluginAsyncTypebox<{ listener: Listener; readiness: Readiness }> = async (
  app,
  { listener, readiness },
) => {
  app.get(
    '/healthz',
    { schema: { summary: 'Liveness: the process answers', response: { 200: Alive } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );

  if (listener === 'front') {
    app.get(
      '/readyz',
      { schema: { summary: 'Readiness: both listeners listen', response: { 200: Verdict, 503: Verdict } } },
      async (_request, reply) => {
        const { ready, degraded } = readiness;
        const status = !ready ? ('not ready' as const) : degraded ? ('degraded' as const) : ('ready' as const);
        return reply
          .code(ready ? 200 : 503)
          .header('cache-control', 'no-store')
          .send({ status });
      },
    );
    return;
  }
  app.get(
    '/readyz',
    {
      schema: {
        summary: "Readiness, with each dataset's state and age",
        response: { 200: ReadinessReport, 503: ReadinessReport },
      },
    },
    async (_request, reply) => {
      const report = readiness.report();
      return reply
        .code(report.ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send(report);
    },
  );
};

export default health;
