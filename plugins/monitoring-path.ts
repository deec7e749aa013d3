import type { FastifyRequest } from 'fastify';

/** The telemetry tunnel has its own limiter and is exempt from both global ones. */
export function isMonitoringPath(request: FastifyRequest): boolean {
  const path = request.url.split('?', 1)[0];
  return path === '/api/monitoring' || path === '/api/monitoring/';
}
