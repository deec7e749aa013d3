import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../fastify.config.js';

test('defaults are the spec’s', () => {
  const c = loadConfig({});
  assert.equal(c.BACKEND_PORT, 11966);
  assert.equal(c.FRONTEND_PORT, 18966);
  assert.equal(c.HOST, '127.0.0.1');
  assert.equal(c.LOG_LEVEL, 'info');
  assert.equal(c.LOG_FORMAT, '');
  assert.equal(c.LOG_HTTP, false);
  assert.equal(c.SECURITY_RATE_LIMIT, 0);
  assert.equal(c.SECURITY_DELAY_AFTER, 0);
  assert.equal(c.SECURITY_BLACKLIST_LOG_FILE_PATH, '');
  assert.equal(c.ALLOWED_DOMAINS, '');
  assert.equal(c.UPSTREAM_TIMEOUT_MS, 8000);
  assert.equal(c.UPSTREAM_OVERRIDE_ORIGIN, '');
  assert.equal(c.DATA_DIR, './data');
  assert.equal(c.GEODB_AUTO_UPDATE, false);
  assert.equal(c.ASNDATA_AUTO_UPDATE, false);
  assert.equal(c.GEODB_ACCOUNT_ID, '');
  assert.ok(c.ROUTING_SOURCE_APP.length > 0);
  // The contract's route counts the reference project's stars; the site shows them only for another one.
  assert.equal(c.REPO_STARS_REPOSITORY, 'jason5ng32/MyIP');
  assert.equal(c.SOURCE_CODE_URL, '');
});

test('an empty value takes the default', () => {
  assert.equal(loadConfig({ BACKEND_PORT: '', LOG_LEVEL: '' }).BACKEND_PORT, 11966);
});

test('values are typed: integers, booleans, trimmed trailing slashes', () => {
  const c = loadConfig({
    BACKEND_PORT: '8080',
    LOG_HTTP: 'true',
    GEODB_AUTO_UPDATE: 'false',
    SECURITY_RATE_LIMIT: '100',
    SITE_URL: 'https://ipcheck.example//',
    PRIVATE_API_ENDPOINT: 'https://private.example/api/',
  });
  assert.equal(c.BACKEND_PORT, 8080);
  assert.equal(c.LOG_HTTP, true);
  assert.equal(c.GEODB_AUTO_UPDATE, false);
  assert.equal(c.SECURITY_RATE_LIMIT, 100);
  assert.equal(c.SITE_URL, 'https://ipcheck.example');
  assert.equal(c.PRIVATE_API_ENDPOINT, 'https://private.example/api');
});

test('a malformed setting is a start-up error naming it', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ BACKEND_PORT: 'abc' }, 'BACKEND_PORT'],
    [{ FRONTEND_PORT: '70000' }, 'FRONTEND_PORT'],
    [{ SECURITY_RATE_LIMIT: '-5' }, 'SECURITY_RATE_LIMIT'],
    [{ SECURITY_DELAY_AFTER: '1.5' }, 'SECURITY_DELAY_AFTER'],
    [{ LOG_HTTP: 'yes' }, 'LOG_HTTP'],
    [{ GEODB_AUTO_UPDATE: '1' }, 'GEODB_AUTO_UPDATE'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ UPSTREAM_TIMEOUT_MS: '0' }, 'UPSTREAM_TIMEOUT_MS'],
    [{ UPSTREAM_OVERRIDE_ORIGIN: 'ftp://x/y' }, 'UPSTREAM_OVERRIDE_ORIGIN'],
    [{ DNS_OVERRIDE_SERVER: 'nohost' }, 'DNS_OVERRIDE_SERVER'],
    [{ IPV4_ONLY_ORIGIN: 'https://v4.example/path' }, 'IPV4_ONLY_ORIGIN'],
    [{ IPV6_ONLY_ORIGIN: 'v6.example' }, 'IPV6_ONLY_ORIGIN'],
    [{ RULE_TEST_ORIGINS: 'https://a.example, https://b.example' }, 'RULE_TEST_ORIGINS'],
    [
      { RULE_TEST_ORIGINS: Array.from({ length: 17 }, (_, i) => `https://r${i}.example`).join(',') },
      'RULE_TEST_ORIGINS',
    ],
    [{ OIDC_ISSUER: 'http://id.example', OIDC_CLIENT_ID: 'site' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'id.example', OIDC_CLIENT_ID: 'site' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://id.example/?x=1', OIDC_CLIENT_ID: 'site' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'my site' }, 'OIDC_CLIENT_ID'],
    [{ OIDC_SCOPES: 'profile email' }, 'OIDC_SCOPES'],
    [{ OIDC_SCOPES: 'openid  email' }, 'OIDC_SCOPES'],
    [{ CONNECTIVITY_TARGETS: 'https://no-name.example/' }, 'CONNECTIVITY_TARGETS'],
    [{ CONNECTIVITY_TARGETS: 'Site=ftp://files.example/' }, 'CONNECTIVITY_TARGETS'],
    [{ DNS_LEAK_PROVIDERS: 'ipapi,browserleaks' }, 'DNS_LEAK_PROVIDERS'],
    [{ DNS_LEAK_PROVIDERS: 'ipapi=http://edns.localhost/json' }, 'DNS_LEAK_PROVIDERS'],
  ];
  for (const [env, name] of cases) {
    assert.throws(
      () => loadConfig(env),
      (err: Error) => err instanceof ConfigError && err.message.includes(name),
      name,
    );
  }
});

test('sign-in: an HTTPS issuer (with its path), plain HTTP only on this machine, both settings or neither', () => {
  const keycloak = loadConfig({ OIDC_ISSUER: 'https://id.example/realms/site', OIDC_CLIENT_ID: 'netdiag' });
  assert.equal(keycloak.OIDC_ISSUER, 'https://id.example/realms/site');
  assert.equal(keycloak.OIDC_SCOPES, 'openid profile email');
  for (const issuer of ['http://localhost:8080', 'http://127.0.0.1:9000/oidc', 'http://[::1]:4000']) {
    assert.equal(loadConfig({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'netdiag' }).OIDC_ISSUER, issuer);
  }
  assert.equal(loadConfig({ OIDC_SCOPES: 'openid offline_access' }).OIDC_SCOPES, 'openid offline_access');
  for (const env of [{ OIDC_ISSUER: 'https://id.example' }, { OIDC_CLIENT_ID: 'netdiag' }]) {
    assert.throws(
      () => loadConfig(env),
      (err: Error) => err instanceof ConfigError && /both OIDC_ISSUER and OIDC_CLIENT_ID/.test(err.message),
    );
  }
});

test('LOG_FORMAT: json or anything else', () => {
  assert.equal(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT, 'json');
  assert.equal(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT, 'pretty');
});
