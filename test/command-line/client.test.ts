import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandLineFormat } from '../../web/command-line/client.js';
import { ipDecimal } from '../../web/command-line/json-answer.js';
import { parseUserAgent } from '../../web/command-line/user-agent.js';

test('command-line tools by their User-Agent get text', () => {
  for (const agent of [
    'curl/8.5.0',
    'Wget/1.21.3',
    'HTTPie/3.2.2',
    'xh/0.22.2',
    'fetch libfetch/2.0',
    'Go-http-client/2.0',
    'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.22631; en-GB) PowerShell/7.4.1',
    'Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.22621.2506',
  ]) {
    assert.equal(commandLineFormat({ 'user-agent': agent, accept: '*/*' }), 'text', agent);
    assert.equal(commandLineFormat({ 'user-agent': agent }), 'text', `${agent}, no Accept`);
  }
});

test('Accept decides: text/html is a navigation, JSON asks for JSON, text/plain for text', () => {
  assert.equal(commandLineFormat({ 'user-agent': 'curl/8.5.0', accept: 'text/html' }), undefined);
  assert.equal(commandLineFormat({ accept: 'application/json' }), 'json');
  assert.equal(commandLineFormat({ 'user-agent': 'curl/8.5.0', accept: 'application/json' }), 'json');
  assert.equal(commandLineFormat({ accept: 'text/plain' }), 'text');
  assert.equal(commandLineFormat({ accept: 'application/json, text/plain, */*' }), 'json');
});

test('browsers and clients naming nothing get the site', () => {
  assert.equal(
    commandLineFormat({
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    }),
    undefined,
  );
  assert.equal(commandLineFormat({ 'user-agent': 'Mozilla/5.0 Firefox/133.0', accept: '*/*' }), undefined);
  assert.equal(commandLineFormat({}), undefined);
  assert.equal(commandLineFormat({ 'user-agent': 'mycurl/1.0' }), undefined, 'a product named like a tool is not one');
});

test('a User-Agent split as the ifconfig.co engine splits it', () => {
  assert.deepEqual(parseUserAgent('curl/8.5.0'), { product: 'curl', version: '8.5.0', raw_value: 'curl/8.5.0' });
  assert.deepEqual(parseUserAgent('Wget/1.21.3 (linux-gnu)'), {
    product: 'Wget',
    version: '1.21.3',
    comment: '(linux-gnu)',
    raw_value: 'Wget/1.21.3 (linux-gnu)',
  });
  assert.deepEqual(parseUserAgent('fetch libfetch/2.0'), {
    product: 'fetch libfetch',
    version: '2.0',
    raw_value: 'fetch libfetch/2.0',
  });
  assert.deepEqual(parseUserAgent('tool/beta'), { product: 'tool', comment: 'beta', raw_value: 'tool/beta' });
  assert.deepEqual(parseUserAgent('Some Agent'), { product: 'Some', comment: 'Agent', raw_value: 'Some Agent' });
});

test('an address as one integer, exact for IPv6', () => {
  assert.equal(ipDecimal('8.8.8.8'), '134744072');
  assert.equal(ipDecimal('255.255.255.255'), '4294967295');
  assert.equal(ipDecimal('2001:4860:4860::8888'), '42541956123769884636017138956568135816');
  assert.equal(ipDecimal('::1'), '1');
});
