import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApi } from '../support/app.js';

async function withApp(allowed: string, fn: (app: FastifyInstance) => Promise<void>) {
  const { app } = await buildTestApi({ ALLOWED_DOMAINS: allowed });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

async function status(app: FastifyInstance, referer: string | undefined) {
  const res = await app.inject({
    method: 'GET',
    url: '/api/configs',
    headers: referer === undefined ? {} : { referer },
  });
  return { code: res.statusCode, body: res.json() as Record<string, unknown> };
}

const DENIED = { code: 403, body: { error: 'Access denied' } };

test('no Referer header: 403 "What are you doing?"', async () => {
  await withApp('example.com', async (app) => {
    assert.deepEqual(await status(app, undefined), { code: 403, body: { error: 'What are you doing?' } });
    assert.deepEqual(await status(app, ''), { code: 403, body: { error: 'What are you doing?' } });
  });
});

test('localhost is always allowed, listed hostnames are allowed exactly', async () => {
  await withApp('example.com,ipcheck.test', async (app) => {
    assert.equal((await status(app, 'http://localhost:5173/some/page')).code, 200);
    assert.equal((await status(app, 'https://example.com/')).code, 200);
    assert.equal((await status(app, 'https://ipcheck.test/x')).code, 200);
  });
});

test('a hostname that is not listed is denied: subdomains and www are separate hostnames', async () => {
  await withApp('example.com', async (app) => {
    assert.deepEqual(await status(app, 'https://sub.example.com/'), DENIED);
    assert.deepEqual(await status(app, 'https://www.example.com/'), DENIED);
    assert.deepEqual(await status(app, 'https://example.com.evil.test/'), DENIED);
    assert.deepEqual(await status(app, 'https://evil.test/?x=example.com'), DENIED);
  });
  await withApp('www.example.com', async (app) => {
    assert.equal((await status(app, 'https://www.example.com/')).code, 200);
    assert.deepEqual(await status(app, 'https://example.com/'), DENIED);
  });
});

test('port, scheme and path are ignored; the match is on the hostname alone', async () => {
  await withApp('example.com', async (app) => {
    for (const referer of [
      'http://example.com/',
      'https://example.com:8443/a/b?c=d#e',
      'ftp://example.com/file',
      'https://EXAMPLE.com/',
    ]) {
      assert.equal((await status(app, referer)).code, 200, referer);
    }
  });
});

test('a Referer that is not a URL is denied', async () => {
  await withApp('example.com', async (app) => {
    for (const referer of ['example.com', 'not a url', '/relative/path', 'http://']) {
      assert.deepEqual(await status(app, referer), DENIED, referer);
    }
  });
});

test('an empty hostname is never allowed, whatever ALLOWED_DOMAINS holds', async () => {
  for (const allowed of ['', ',', ',,example.com,', ' ', '[]']) {
    await withApp(allowed, async (app) => {
      for (const referer of ['file:///x', 'about:blank', 'data:text/html,hi', 'javascript:void(0)']) {
        assert.deepEqual(await status(app, referer), DENIED, `${JSON.stringify(allowed)} ${referer}`);
      }
    });
  }
});

test('bare IP addresses, bracketed IPv6 included, must be listed', async () => {
  await withApp('203.0.113.5,2001:db8::1', async (app) => {
    assert.equal((await status(app, 'http://203.0.113.5:18966/')).code, 200);
    assert.equal((await status(app, 'http://[2001:db8::1]:18966/')).code, 200);
    assert.deepEqual(await status(app, 'http://[2001:db8::2]/'), DENIED);
    assert.deepEqual(await status(app, 'http://203.0.113.6/'), DENIED);
    assert.deepEqual(await status(app, 'http://127.0.0.1/'), DENIED);
    assert.deepEqual(await status(app, 'http://[::1]/'), DENIED);
  });
  await withApp('[2001:db8::1]', async (app) => {
    assert.equal((await status(app, 'http://[2001:db8::1]/')).code, 200);
  });
});

test('with ALLOWED_DOMAINS empty only localhost gets through', async () => {
  await withApp('', async (app) => {
    assert.equal((await status(app, 'http://localhost/')).code, 200);
    assert.deepEqual(await status(app, 'https://example.com/'), DENIED);
  });
});

test('the gate runs after the no-store default: a 403 is not cacheable', async () => {
  await withApp('', async (app) => {
    const res = await app.inject({ method: 'GET', url: '/api/configs' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.headers['cache-control'], 'no-store');
  });
});

test('a refusal is logged at debug level with the refused hostname, so an operator sees what to allow', async () => {
  const { app, logs } = await buildTestApi({ ALLOWED_DOMAINS: 'example.com' });
  try {
    await status(app, 'https://www.example.com/page');
    await status(app, undefined);
    await status(app, 'not a url');
    const refused = logs.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('request refused'));
    assert.deepEqual(
      refused.map((l) => [l.level, l.msg, l.refererHostname]),
      [
        [20, 'request refused: Referer hostname not in ALLOWED_DOMAINS', 'www.example.com'],
        [20, 'request refused: no Referer', undefined],
        [20, 'request refused: Referer hostname not in ALLOWED_DOMAINS', undefined],
      ],
    );
  } finally {
    await app.close();
  }
});
