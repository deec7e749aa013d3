import type { ServerResponse } from 'node:http';
import { decodeJwt } from 'jose';
import { EXAMPLE_PRIVATE_API_HOST } from '../../../routes/example-request.js';
import { fixture, type FakeUpstream, type Recorded } from '../fake-upstream.js';

/**
 * The caller's token decides what the demo's private API answers, as the companion would for them:
 * none, `Sign in required`; `demo-quota-used`, the monthly quota spent; `demo-slow`, a job still measuring
 * at the first poll (and a slower evaluation); any other, the fixtures. With sign-in set up the service
 * passes only an ID token it has checked, and its subject (`sub`) is the one of these it names: the
 * browser tests sign in by sending such a token (e2e/sign-in-steps.ts, `demoIdToken`).
 */
export const DEMO_TOKENS = { quotaUsed: 'demo-quota-used', slow: 'demo-slow', user: 'demo-user' } as const;

const json = (res: ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Who the caller is: a JWT's subject (the service has checked its signature), else the bare token. */
function bearer(req: Recorded): string | null {
  const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
  if (token === undefined) return null;
  try {
    return decodeJwt(token).sub ?? token;
  } catch {
    return token;
  }
}

/** Answers the refusals; true when it did. */
function refused(req: Recorded, res: ServerResponse): boolean {
  const token = bearer(req);
  if (token === null) json(res, { message: 'Sign in required' }, 401);
  else if (token === DEMO_TOKENS.quotaUsed) json(res, { message: 'Monthly quota exceeded' }, 429);
  else return false;
  return true;
}

/** Whether this is the first time `key` is asked for by a slow caller: it is then still pending. */
function firstSlow(req: Recorded, seen: Set<string>, key: string): boolean {
  if (bearer(req) !== DEMO_TOKENS.slow || seen.has(key)) return false;
  seen.add(key);
  return true;
}

export function registerPrivateToolsFakeRoutes(fake: FakeUpstream): void {
  const host = EXAMPLE_PRIVATE_API_HOST;
  const seen = new Set<string>();
  fake.on('GET', host, /^\/dnsleaktest\/session\/[0-9a-f]{32}$/, (req, res) => {
    if (refused(req, res)) return;
    if (firstSlow(req, seen, req.path)) {
      return json(res, { status: 'pending', rawCount: 0, resolverCount: 0, queries: [] });
    }
    json(res, fixture(host, 'dnsleaktest-session.json'));
  });
  fake.on('GET', host, '/invisibility', (req, res) => {
    if (refused(req, res)) return;
    if (firstSlow(req, seen, `invisibility:${req.query.get('id')}`)) {
      return json(res, { message: 'Data not found' }, 404);
    }
    json(res, fixture(host, 'invisibility-result.json'));
  });
  fake.on('POST', host, '/persona/evaluate', (req, res) => {
    if (refused(req, res)) return;
    const delay = bearer(req) === DEMO_TOKENS.slow ? 1500 : 0;
    setTimeout(() => json(res, fixture(host, 'persona-evaluation.json')), delay);
  });
}
