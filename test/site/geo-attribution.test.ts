import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attributionOf,
  attributionOfSource,
  everyAttribution,
  localSourceName,
  sourceName,
  type Attribution,
} from '../../web/site/src/lib/geo-attribution.js';

const words = (a: Attribution | null) => (a ? `${a.lead}${a.link}${a.tail} <${a.href}>` : null);

test("DB-IP's credit is the link its licence asks for: IP Geolocation by DB-IP, to db-ip.com", () => {
  assert.equal(words(attributionOf('dbip')), 'IP Geolocation by DB-IP <https://db-ip.com>');
  assert.equal(localSourceName('dbip'), 'DB-IP Lite');
});

test("MaxMind's credit is GeoLite2's sentence, its address the link", () => {
  assert.equal(
    words(attributionOf('maxmind')),
    'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com. <https://www.maxmind.com>',
  );
  assert.equal(localSourceName('maxmind'), 'MaxMind GeoLite2');
});

test('no database loaded: no credit, and the card keeps the default publisher name', () => {
  assert.equal(attributionOf(null), null);
  assert.equal(localSourceName(null), 'MaxMind GeoLite2');
});

test("a shared report's card gets the credit of the database it names, and no other card any", () => {
  assert.deepEqual(attributionOfSource('DB-IP Lite'), attributionOf('dbip'));
  assert.deepEqual(attributionOfSource('MaxMind GeoLite2'), attributionOf('maxmind'));
  for (const other of ['IPinfo', 'ip-api', 'IP.SB', '', 'db-ip lite', 'MaxMind GeoLite2 ']) {
    assert.equal(attributionOfSource(other), null, JSON.stringify(other));
  }
});

test('the local source is shown by its publisher, every other source by its own name', () => {
  assert.equal(sourceName({ route: 'geo-local', name: 'MaxMind GeoLite2' }, 'dbip'), 'DB-IP Lite');
  assert.equal(sourceName({ route: 'geo-local', name: 'MaxMind GeoLite2' }, null), 'MaxMind GeoLite2');
  assert.equal(sourceName({ route: 'geo-free-a', name: 'ip-api' }, 'dbip'), 'ip-api');
});

test('the privacy page, before a database is known to be loaded, names both credits in their own words', () => {
  assert.deepEqual(everyAttribution().map(words), [words(attributionOf('maxmind')), words(attributionOf('dbip'))]);
});
