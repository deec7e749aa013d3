import type { FastifyRequest } from 'fastify';

const MONITORING = '/api/monitoring';

/** The telemetry tunnel has its own limiter and is exempt from both global ones. */
export function isMonitoringPath(request: FastifyRequest): boolean {
  // Every request asks this twice; a prefix test settles all other URLs without splitting them.
  const url = request.url;
  if (!url.startsWith(MONITORING)) return false;
  const rest = url.slice(MONITORING.length);
  return rest === '' || rest === '/' || rest.startsWith('?') || rest.startsWith('/?');
}
