import fp from 'fastify-plugin';
import { memoized } from '../lib/memory-cache.js';

export const NO_REFERER = 'What are you doing?';
export const ACCESS_DENIED = 'Access denied';

/** Hostnames compare without IPv6 brackets, so `[2001:db8::1]` and `2001:db8::1` name the same host. */
function bare(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

export function allowedHostnames(allowedDomains: string): Set<string> {
  const hosts = allowedDomains
    .split(',')
    .map((h) => bare(h.trim()))
    .filter(Boolean);
  return new Set(['localhost', ...hosts]);
}

/** The Referer's hostname, bare; undefined when the Referer is not a URL. */
function refererHostname(referer: string): string | undefined {
  try {
    return bare(new URL(referer).hostname);
  } catch {
    return undefined;
  }
}

/** Whether the Referer's hostname is an allowed one; an empty hostname (file:, about:) never is. */
export function refererAllowed(referer: string, allowed: Set<string>): boolean {
  const hostname = refererHostname(referer);
  return !!hostname && allowed.has(hostname);
}

// Browsers send a handful of distinct Referers; remembering the verdicts spares
// a URL parse per request.
const VERDICTS_MAX = 1024;

/** refererAllowed against a fixed set of hostnames, with the verdicts remembered. */
export function refererMatcher(allowed: Set<string>): (referer: string) => boolean {
  return memoized((referer) => refererAllowed(referer, allowed), VERDICTS_MAX);
}

/** Only pages of the site itself (exact hostnames) may call the API. */
export default fp(
  async (app) => {
    const allowed = refererMatcher(allowedHostnames(app.config.ALLOWED_DOMAINS));
    app.addHook('preValidation', (request, reply, done) => {
      const referer = request.headers.referer;
      if (!referer) {
        request.log.debug({ url: request.url }, 'request refused: no Referer');
        return void reply.code(403).send({ error: NO_REFERER });
      }
      if (!allowed(referer)) {
        // So an operator can see which hostname to add to ALLOWED_DOMAINS.
        request.log.debug(
          { refererHostname: refererHostname(referer), url: request.url },
          'request refused: Referer hostname not in ALLOWED_DOMAINS',
        );
        return void reply.code(403).send({ error: ACCESS_DENIED });
      }
      done();
    });
  },
  { name: 'referer-gate' },
);
