import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { closedOrigin, fixture, type FakeUpstream } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { FAKE_PRIVATE_ENV } from '../support/fake-routes/network-tools.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { startOidcProvider, TEST_CLIENT, type TestProvider } from '../support/oidc-provider.js';
import { EXAMPLE_PRIVATE_API_HOST as HOST } from '../../routes/example-request.js';

// Every route that forwards the caller's Authorization to the companion API, as the site calls it.
const PRIVATE_CALLS: InjectOptions[] = [
  { method: 'GET', url: '/api/dnsleaktest/session/0123456789abcdef0123456789abcdef' },
  { method: 'GET', url: '/api/invisibility?id=Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9b' },
  { method: 'POST', url: '/api/persona/evaluate', payload: { persona: { country: 'DE' } } },
  { method: 'GET', url: '/api/getuserinfo' },
  { method: 'PUT', url: '/api/updateuserachievement', payload: { achievement: 'DnsLeakChecked' } },
  { method: 'GET', url: '/api/geo-private?ip=8.8.8.8' },
];

const companionRoutes = (fake: FakeUpstream) => {
  fake.on('GET', HOST, /^\/dnsleaktest\/session\//, { json: fixture(HOST, 'dnsleaktest-session.json') });
  fake.on('GET', HOST, '/invisibility', { json: fixture(HOST, 'invisibility-result.json') });
  fake.on('POST', HOST, '/persona/evaluate', { json: fixture(HOST, 'persona-evaluation.json') });
  fake.on('GET', HOST, '/getuserinfo', { json: fixture(HOST, 'getuserinfo.json') });
  fake.on('PUT', HOST, '/updateuserachievement', { json: fixture(HOST, 'updateuserachievement.json') });
  fake.on('GET', HOST, '/ipinfo', { json: fixture(HOST, 'ipinfo-signed-in.json') });
};
const fake = fakeUpstreamPerFile(companionRoutes);

/** Forgets what the companion received, keeping its answers. */
function forgetRequests(): void {
  fake.reset();
  companionRoutes(fake);
}

let provider: TestProvider;
before(async () => {
  provider = await startOidcProvider();
});
after(() => provider.close());

const signInEnv = () => ({
  ...FAKE_PRIVATE_ENV,
  UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: TEST_CLIENT,
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const now = () => Math.floor(Date.now() / 1000);

/** A token as the provider would sign it, with `claims` over an ID token's for the site's client. */
async function signed(claims: JWTPayload = {}, key = provider.signingKey): Promise<string> {
  return new SignJWT({
    sub: 'ada-0001',
    iss: provider.issuer,
    aud: TEST_CLIENT,
    iat: now(),
    exp: now() + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: provider.kid })
    .sign(key);
}

/** The seven kinds of forged token of finding 10, each a good ID token but for one thing. */
async function forgedTokens(): Promise<Record<string, string>> {
  const { privateKey: otherKey } = await generateKeyPair('RS256');
  return {
    'bad signature': await signed({}, otherKey),
    'wrong issuer': await signed({ iss: 'http://localhost:1' }),
    'wrong audience': await signed({ aud: 'another-client' }),
    expired: await signed({ iat: now() - 7200, exp: now() - 3600 }),
    'not yet valid': await signed({ nbf: now() + 3600 }),
    'not a JWT': 'demo-user',
    'alg none': new UnsecuredJWT({ sub: 'ada-0001', aud: TEST_CLIENT, exp: now() + 600 })
      .setIssuer(provider.issuer)
      .setIssuedAt()
      .encode(),
  };
}

/** How many of `tokens` reached the companion API on every private route. */
async function reachingCompanion(app: FastifyInstance, tokens: Record<string, string>): Promise<string[]> {
  const reached: string[] = [];
  for (const [kind, token] of Object.entries(tokens)) {
    forgetRequests();
    for (const request of PRIVATE_CALLS) await call(app, { ...request, headers: bearer(token) });
    if (fake.requestsTo(HOST).length > 0) reached.push(kind);
  }
  return reached;
}

test('with an issuer, each forged token is refused 401 Invalid token on every private route before the companion is asked', async () => {
  const { app, logs } = await buildTestApi(signInEnv());
  const tokens = await forgedTokens();
  for (const [kind, token] of Object.entries(tokens)) {
    for (const request of PRIVATE_CALLS) {
      const res = await call(app, { ...request, headers: bearer(token) });
      assertErrorAnswer(res, 401, 'Invalid token', `${kind} on ${request.method} ${request.url}`);
    }
  }
  assert.deepEqual(fake.requestsTo(HOST), [], 'no forged token reached the companion');
  assert.deepEqual(await reachingCompanion(app, tokens), [], '0 of 7 forged tokens reach the companion');
  for (const token of Object.values(tokens)) assert.ok(!logs.text.includes(token), 'no token in the log');
  await app.close();
});

test('with an issuer, a header that is no bearer token is refused too', async () => {
  const { app } = await buildTestApi(signInEnv());
  const good = await provider.idTokenFor('ada-0001');
  const headers = [
    `Basic ${Buffer.from('ada:pw').toString('base64')}`,
    `Token ${good}`,
    `Bearer ${good} x`,
    'Bearer',
    '',
  ];
  for (const authorization of headers) {
    const res = await call(app, { url: '/api/getuserinfo', headers: { authorization } });
    assertErrorAnswer(res, 401, 'Invalid token', JSON.stringify(authorization.slice(0, 8)));
  }
  assert.deepEqual(fake.requestsTo(HOST), []);
  await app.close();
});

test("with an issuer, the provider's own ID token passes through unchanged on every private route", async () => {
  const { app } = await buildTestApi(signInEnv());
  const token = await provider.idTokenFor('ada-0001');
  for (const request of PRIVATE_CALLS) {
    forgetRequests();
    const res = await call(app, { ...request, headers: { ...bearer(token), 'accept-language': 'de' } });
    assert.equal(res.statusCode, 200, `${request.method} ${request.url}: ${res.body}`);
    const [received] = fake.requestsTo(HOST);
    assert.equal(received?.headers.authorization, `Bearer ${token}`, `${request.method} ${request.url}`);
    assert.equal(received?.headers['accept-language'], 'de');
  }
  await app.close();
});

test('with an issuer, a caller without Authorization is passed on as today, for the companion to answer', async () => {
  const { app } = await buildTestApi(signInEnv());
  const res = await call(app, '/api/getuserinfo');
  assert.equal(res.statusCode, 200);
  const [received] = fake.requestsTo(HOST);
  assert.ok(received, 'the companion was asked');
  assert.equal(received.headers.authorization, undefined);
  await app.close();
});

test('without an issuer, tokens are not checked: all 7 forged tokens reach the companion as before', async () => {
  const { app } = await buildTestApi({ ...FAKE_PRIVATE_ENV, UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const tokens = await forgedTokens();
  assert.deepEqual(await reachingCompanion(app, tokens), Object.keys(tokens));
  await app.close();
});

test('an issuer that does not answer: 503 Sign-in check unavailable, the companion never asked, one line naming OIDC_ISSUER', async () => {
  const issuer = await closedOrigin();
  const { app, logs } = await buildTestApi({ ...signInEnv(), OIDC_ISSUER: issuer });
  const token = await signed({ iss: issuer });
  for (const request of PRIVATE_CALLS) {
    const res = await call(app, { ...request, headers: bearer(token) });
    assertErrorAnswer(res, 503, 'Sign-in check unavailable', `${request.method} ${request.url}`);
  }
  assert.deepEqual(fake.requestsTo(HOST), []);
  const lines = logs.lines.filter((line) => String(line.msg).includes('OIDC_ISSUER'));
  assert.ok(lines.length >= 1, logs.text);
  assert.match(String(lines[0]!.msg), /sign-in tokens cannot be checked/);
  assert.ok(!logs.text.includes(token), 'no token in the log');
  // A token no key could ever check (no JWT, `alg: none`) is still refused, without asking the issuer.
  const { 'not a JWT': notJwt, 'alg none': unsigned } = await forgedTokens();
  for (const refused of [notJwt!, unsigned!]) {
    const res = await call(app, { url: '/api/getuserinfo', headers: bearer(refused) });
    assertErrorAnswer(res, 401, 'Invalid token');
  }
  await app.close();
});
