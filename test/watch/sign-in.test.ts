import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApi, call, type TestApi } from '../support/app.js';
import { startOidcProvider, TEST_CLIENT, type TestProvider } from '../support/oidc-provider.js';

let provider: TestProvider;
let dir: string;
let api: TestApi;

before(async () => {
  provider = await startOidcProvider();
  dir = await mkdtemp(join(tmpdir(), 'watch-sign-in-'));
  api = await buildTestApi({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT,
    REPORT_STORE: 'local',
    DATA_DIR: dir,
    WATCH_MAX_PER_SIGN_IN: '2',
    WATCH_MAX_PER_CLIENT: '0',
  });
});
after(async () => {
  await api.app.close();
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

const create = (authorization?: string) =>
  call(api.app, { method: 'POST', url: '/api/watch', headers: authorization ? { authorization } : {} });

test('signed in, a visitor holds at most WATCH_MAX_PER_SIGN_IN watches; deleting one frees its place; another visitor has their own', async () => {
  const ada = `Bearer ${await provider.idTokenFor('ada-0001')}`;
  const first = await create(ada);
  assert.equal(first.statusCode, 201);
  assert.equal((await create(ada)).statusCode, 201);
  const refused = await create(ada);
  assert.equal(refused.statusCode, 429);
  assert.deepEqual(refused.json(), { error: 'Too many watches for this sign-in' });

  const grace = `Bearer ${await provider.idTokenFor('grace-0002')}`;
  assert.equal((await create(grace)).statusCode, 201);
  assert.equal((await create()).statusCode, 201, 'signed out, no list to count against');

  const deleted = await call(api.app, { method: 'DELETE', url: `/api/watch/${first.json().token as string}` });
  assert.equal(deleted.statusCode, 204);
  assert.equal((await create(ada)).statusCode, 201);
});

test('a sign-in token that does not check out is 401 Invalid token, and no watch is made', async () => {
  const res = await create('Bearer not.a.token');
  assert.equal(res.statusCode, 401);
  assert.deepEqual(res.json(), { error: 'Invalid token' });
});
