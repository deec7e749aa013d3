import type { FastifyRequest } from 'fastify';

const MONITORING = '/api/monitoring';

/** The telemetry tunnel has its own limiter and is exempt from both global ones. */
export function isMonitoringPath(request: FastifyRequest): boolean {
  // Every request asks this twice, so it compares in place rather than splitting the URL.
  const url = request.url;
  if (!url.startsWith(MONITORING)) return false;
  const rest = url.length === MONITORING.length ? '' : url[MONITORING.length];
  return rest === '' || rest === '?' || (rest === '/' && (url.length === MONITORING.length + 1 || url[MONITORING.length + 1] === '?'));
}
