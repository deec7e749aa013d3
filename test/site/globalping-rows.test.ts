import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpHeadBody, mtrBody, pingBody } from '../../web/site/src/features/globalping/bodies.js';
import {
  WORLD_CAP,
  WORLD_SUGGESTIONS,
  pickerSections,
  preselect,
  selectable,
  withAll,
} from '../../web/site/src/features/globalping/countries.js';
import { readMeasurement } from '../../web/site/src/features/globalping/measurement.js';
import { httpRows, mtrRows, pingRows } from '../../web/site/src/features/globalping/rows.js';
import { readTarget } from '../../web/site/src/features/globalping/target.js';
import { pingSection } from '../../web/site/src/features/latency/report.js';
import { mtrSection } from '../../web/site/src/features/traceroute/report.js';
import { checkReport } from '../../contract/report.js';

const probe = (country: string, city = 'Town') => ({ country, city, network: 'Net', asn: 64500 });

test('the request bodies: ping and MTR one probe per country, HTTP HEAD two per country without a top-level limit', () => {
  assert.deepEqual(pingBody('example.com', ['DE', 'JP']), {
    type: 'ping',
    target: 'example.com',
    limit: 2,
    locations: [{ country: 'DE' }, { country: 'JP' }],
    measurementOptions: { packets: 8 },
  });
  assert.deepEqual(mtrBody('1.1.1.1', ['US']), {
    type: 'mtr',
    target: '1.1.1.1',
    limit: 1,
    locations: [{ country: 'US' }],
    measurementOptions: { port: 80, protocol: 'ICMP' },
  });
  assert.deepEqual(httpHeadBody('example.com', ['CN', 'US']), {
    type: 'http',
    target: 'example.com',
    locations: [
      { country: 'CN', limit: 2 },
      { country: 'US', limit: 2 },
    ],
    measurementOptions: { request: { host: 'example.com', path: '/', method: 'HEAD' }, port: 443, protocol: 'HTTPS' },
  });
});

test('an answer of the wrong shape is no measurement, and wrongly typed fields are dropped, not trusted', () => {
  assert.equal(readMeasurement(null), null);
  assert.equal(readMeasurement({ status: 'finished' }), null);
  const m = readMeasurement({
    status: 'finished',
    results: [
      {
        probe: { country: 'de', city: 7, network: 'N', asn: 'x' },
        result: { status: 'finished', stats: { min: '1' } },
      },
      'junk',
      { probe: null, result: {} },
    ],
  });
  assert.deepEqual(m?.results, [
    {
      probe: { country: 'DE', city: '', network: 'N', asn: null },
      status: 'finished',
      rawOutput: null,
      stats: { min: null, avg: null, max: null, loss: null, total: null, rcv: null, drop: null },
      statusCode: null,
    },
  ]);
});

test('row selection: ping needs a finished probe with a minimum, MTR a finished probe with its text', () => {
  const m = readMeasurement({
    status: 'finished',
    results: [
      {
        probe: probe('DE'),
        result: { status: 'finished', rawOutput: 'Host Loss%\n 1. 192.0.2.1 0.0%', stats: { min: 1, avg: 2, max: 3 } },
      },
      { probe: probe('JP'), result: { status: 'finished', rawOutput: '', stats: { min: null, loss: 100 } } },
      { probe: probe('US'), result: { status: 'failed', rawOutput: 'unknown host', stats: { min: 5 } } },
      { probe: probe('BR'), result: { status: 'in-progress', rawOutput: null } },
    ],
  })!;
  assert.deepEqual(
    pingRows(m).map((r) => r.probe.country),
    ['DE'],
  );
  assert.deepEqual(
    mtrRows(m).map((r) => [r.probe.country, r.hops.length]),
    [
      ['DE', 1],
      ['JP', 0],
    ],
  );
});

test('HTTP rows: every probe that printed something; at the end one still working has failed, in the chosen order', () => {
  const m = readMeasurement({
    status: 'in-progress',
    results: [
      { probe: probe('US'), result: { status: 'finished', rawOutput: 'HTTP/1.1 200', statusCode: 200 } },
      { probe: probe('CN'), result: { status: 'in-progress', rawOutput: '' } },
      { probe: probe('RU'), result: { status: 'failed', rawOutput: 'connect ETIMEDOUT' } },
      { probe: probe('DE'), result: { status: 'offline', rawOutput: '' } },
      { probe: probe('JP'), result: { status: 'in-progress', rawOutput: null } },
    ],
  })!;
  const order = ['CN', 'RU', 'US'];
  assert.deepEqual(
    httpRows(m, false, order).map((r) => `${r.probe.country} ${r.status}`),
    ['US finished', 'CN in-progress', 'RU failed'],
  );
  assert.deepEqual(
    httpRows(m, true, order).map((r) => `${r.probe.country} ${r.status} ${r.statusCode}`),
    ['CN failed null', 'RU failed null', 'US finished 200'],
  );
});

test('the target: empty, invalid, unreachable (private, reserved, local names) or a public address or domain', () => {
  assert.deepEqual(readTarget('  '), { kind: 'empty' });
  assert.deepEqual(readTarget('not a host'), { kind: 'invalid' });
  for (const local of ['10.1.2.3', '127.0.0.1', '::1', 'fd00::1', 'printer.local', 'nas.home.arpa', 'x.test']) {
    assert.deepEqual(readTarget(local), { kind: 'unreachable' }, local);
  }
  assert.deepEqual(readTarget('https://Example.com/path'), { kind: 'ok', target: 'example.com' });
  assert.deepEqual(readTarget('2001:4860:4860::8888'), { kind: 'ok', target: '2001:4860:4860::8888' });
});

test('countries: the picker’s sections, what is chosen in advance, what can be chosen, and "select all"', () => {
  const inventory = {
    countries: ['DE', 'JP', 'US'],
    continents: [
      { key: 'asia', countries: ['JP'] },
      { key: 'europe', countries: ['DE'] },
      { key: 'antarctica', countries: ['AQ'] },
    ],
  };
  assert.deepEqual(
    pickerSections(
      [
        { key: 'own', countries: ['US'] },
        { key: 'flagged', countries: [] },
      ],
      inventory,
    ).map((s) => `${s.key}:${s.countries.join(',')}:${s.folded}`),
    ['own:US:false', 'asia:JP:true', 'europe:DE:true'],
  );
  assert.equal(WORLD_SUGGESTIONS.length, 28);
  assert.deepEqual(preselect(WORLD_SUGGESTIONS, null, WORLD_CAP), WORLD_SUGGESTIONS, 'fail open while unknown');
  assert.deepEqual(preselect(WORLD_SUGGESTIONS, inventory, WORLD_CAP), ['JP', 'DE', 'US']);
  assert.deepEqual(preselect(['CN', 'RU', 'TR', 'SA', 'IR', 'US', 'DE'], null, 3), ['CN', 'RU', 'TR']);
  assert.equal(selectable('CN', inventory, new Set()), false);
  assert.equal(selectable('CN', inventory, new Set(['CN'])), true, 'a chosen country can still be unchosen');
  assert.equal(selectable('CN', null, new Set()), true);
  assert.deepEqual(withAll(['CN', 'JP', 'DE'], inventory, ['DE']), ['DE', 'JP']);
});

const envelope = (sections: object) => ({
  v: 1,
  generatedAt: '2026-11-26T06:00:00.000Z',
  origin: 'localhost',
  locale: 'en',
  sections,
});

test('the report sections pass the service’s own schema, values out of range left out, probes capped at 32', () => {
  const rows = Array.from({ length: 40 }, () => ({
    probe: probe('DE'),
    stats: { min: 1, avg: 2, max: 700_000, loss: 12.5, total: 8, rcv: 7, drop: 1.5 },
  }));
  const ping = pingSection('example.com', rows)!;
  assert.equal(ping.probes.length, 32);
  assert.deepEqual(ping.probes[0], {
    countryCode: 'DE',
    stats: { min: 1, max: undefined, avg: 2, loss: 12.5, total: 8, rcv: 7, drop: undefined },
  });
  const report = JSON.parse(JSON.stringify(envelope({ pingtest: { testedAt: '2026-11-26T06:00:00.000Z', ...ping } })));
  assert.ok(checkReport.Check(report), JSON.stringify([...checkReport.Errors(report)].slice(0, 3)));
  assert.equal(pingSection('under_score.example.com', rows), null, 'a target the report refuses is not recorded');

  const mtr = mtrSection('1.1.1.1', [
    {
      probe: { ...probe('DE'), city: 'c'.repeat(80) },
      hops: [{ n: 1, asn: null, ip: '10.0.0.1', lossPct: 0, rcv: 3 }],
    },
    { probe: probe('JP'), hops: [] },
  ])!;
  assert.equal(mtr.probes.length, 1, 'a probe without hops is left out');
  assert.equal(mtr.probes[0]!.city!.length, 64);
  const mtrReport = JSON.parse(JSON.stringify(envelope({ mtrtest: { testedAt: '2026-11-26T06:00:00.000Z', ...mtr } })));
  assert.ok(checkReport.Check(mtrReport), JSON.stringify([...checkReport.Errors(mtrReport)].slice(0, 3)));
});
