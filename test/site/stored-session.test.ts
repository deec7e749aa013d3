import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasStoredSession, returnPath } from '../../web/site/src/account/stored-session.js';
import { signInSessionKey } from '../../web/site/src/lib/storage-keys.js';

const signIn = { issuer: 'https://id.netdiag.example/realms/site', clientId: 'netdiag-site', scopes: 'openid' };

test('a session is found under oidc-client-ts’s own key, without the library', () => {
  const key = signInSessionKey(signIn.issuer, signIn.clientId);
  assert.equal(key, 'oidc.user:https://id.netdiag.example/realms/site:netdiag-site');
  const storage = new Map([[key, '{"id_token":"x"}']]);
  const store = { getItem: (key: string) => storage.get(key) ?? null };
  assert.equal(hasStoredSession(signIn, store), true);
  assert.equal(hasStoredSession({ ...signIn, clientId: 'other' }, store), false);
  assert.equal(hasStoredSession(signIn, null), false);
});

test('storage that throws (switched off by the browser) means no session', () => {
  const refusing = {
    getItem: () => {
      throw new Error('SecurityError');
    },
  };
  assert.equal(hasStoredSession(signIn, refusing), false);
});

test('after sign-in the visitor returns to a path of this site only', () => {
  assert.equal(returnPath('/connectivity?x=1'), '/connectivity?x=1');
  assert.equal(returnPath('//evil.example/'), '/');
  assert.equal(returnPath('/\\evil.example'), '/');
  assert.equal(returnPath('https://evil.example/'), '/');
  assert.equal(returnPath(undefined), '/');
});
