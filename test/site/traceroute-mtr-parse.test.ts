import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMtr } from '../../web/site/src/features/globalping/mtr-parse.js';

// Written for these tests in the two forms a Globalping probe prints: mtr's
// wide output with AS numbers (Globalping's own) and mtr's classic report.
const GLOBALPING_WIDE = [
  'Host                                                              Loss% Drop Rcv    Avg  StDev  Javg',
  ' 1. AS???    _gateway (172.17.0.1)                                 0.0%    0   3    0.1    0.0   0.0',
  ' 2. AS24940  static.88-198-21-1.clients.your-server.de (88.198.21.1)  0.0%    0   3    0.6    0.1   0.1',
  ' 3. AS24940  core22.fsn1.hetzner.com (213.239.239.125)             33.3%    1   2    4.9    0.3   0.4',
  ' 4. (waiting for reply)',
  ' 5. AS13335  one.one.one.one (1.1.1.1)                             0.0%    0   3    5.2    0.2   0.2',
].join('\n');

const CLASSIC_REPORT = [
  'Start: 2026-11-26T06:00:00+0000',
  'HOST: probe-eu-01                 Loss%   Snt   Last   Avg  Best  Wrst StDev',
  '  1.|-- 10.10.0.1                  0.0%     3    0.4   0.5   0.3   0.7   0.1',
  '  2.|-- ???                       100.0     3    0.0   0.0   0.0   0.0   0.0',
  '  3.|-- 2001:7f8::3b41:0:1         0.0%     3   11.2  11.4  11.1  11.9   0.4',
  '  3.|-- 192.0.2.99                 0.0%     3    1.0   1.0   1.0   1.0   0.0',
  '       198.51.100.7',
  ' 70.|-- 192.0.2.70                 0.0%     3    1.0   1.0   1.0   1.0   0.0',
].join('\n');

test('Globalping’s wide output: AS, host and address, numbers aligned with the header from the right', () => {
  const hops = parseMtr(GLOBALPING_WIDE);
  assert.deepEqual(hops[0], {
    n: 1,
    asn: null,
    host: '_gateway',
    ip: '172.17.0.1',
    lossPct: 0,
    drop: 0,
    rcv: 3,
    avgMs: 0.1,
    stdevMs: 0,
    javgMs: 0,
  });
  assert.equal(hops[1]!.host, 'static.88-198-21-1.clients.your-server.de');
  assert.equal(hops[1]!.asn, 24940);
  assert.deepEqual(
    { lossPct: hops[2]!.lossPct, drop: hops[2]!.drop, rcv: hops[2]!.rcv, avgMs: hops[2]!.avgMs },
    { lossPct: 33.3, drop: 1, rcv: 2, avgMs: 4.9 },
  );
  assert.deepEqual(hops[3], { n: 4 }, 'a hop that never answered is kept, with nothing but its number');
  assert.deepEqual(
    hops.map((h) => h.n),
    [1, 2, 3, 4, 5],
  );
  assert.equal(hops[4]!.ip, '1.1.1.1');
});

test('mtr’s classic report: `N.|--`, bare addresses, `???`, a repeated hop and hops past 64 left out', () => {
  const hops = parseMtr(CLASSIC_REPORT);
  assert.deepEqual(
    hops.map((h) => h.n),
    [1, 2, 3],
  );
  assert.deepEqual(hops[0], {
    n: 1,
    ip: '10.10.0.1',
    lossPct: 0,
    sntCount: 3,
    lastMs: 0.4,
    avgMs: 0.5,
    bestMs: 0.3,
    worstMs: 0.7,
    stdevMs: 0.1,
  });
  assert.equal(hops[1]!.host, undefined, '??? names no host');
  assert.equal(hops[1]!.ip, undefined);
  assert.equal(hops[1]!.lossPct, 100, 'a loss without its % sign still reads');
  assert.equal(hops[2]!.ip, '2001:7f8::3b41:0:1', 'the first line of a hop wins; an IPv6 address reads whole');
});

test('text that is no MTR gives no hops, and odd lines never throw', () => {
  assert.deepEqual(parseMtr(''), []);
  assert.deepEqual(parseMtr('mtr: Failure to open IPv4 sockets: Permission denied'), []);
  const odd = parseMtr('Host Loss%\n 1. AS99x  (not-an-ip)  5%\n 2.\n 3. AS1 name (300.1.1.1) 1.5%\n0. x');
  assert.deepEqual(odd, [
    { n: 1, host: 'AS99x (not-an-ip)', lossPct: 5 },
    { n: 2 },
    { n: 3, asn: 1, host: 'name (300.1.1.1)', lossPct: 1.5 },
  ]);
});

test('a host name longer than the report allows is cut to 128 letters', () => {
  const long = `${'a'.repeat(200)}.example.net`;
  const [hop] = parseMtr(`Host Loss%\n 1. ${long} (192.0.2.1) 0.0%`);
  assert.equal(hop!.host!.length, 128);
  assert.equal(hop!.ip, '192.0.2.1');
});
