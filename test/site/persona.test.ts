import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gradeOf, personaSection, scoreOf, type Evaluation } from '../../web/site/src/features/persona/results.js';
import { cardBin, likelyLanguage, zonesOf } from '../../web/site/src/features/persona/persona.js';
import {
  layoutOf,
  observeBrowser,
  observedSections,
  observeKeyboard,
  observeTrace,
  observeVoices,
  parseTrace,
  TRACE_URL,
} from '../../web/site/src/features/persona/observe.js';
import { FakeClock } from './fake-clock.js';
import { assertAccepted, TESTED_AT } from './accepted-report.js';
import { privateFixture } from './private-answers.js';

const EVALUATION = privateFixture<Evaluation>('persona-evaluation.json');

test('the graded report becomes a section the service accepts, without any check’s detail', () => {
  const section = personaSection(EVALUATION, 'us');
  assert.equal(section.country, 'US');
  assert.equal(section.grade, 'B');
  assert.equal(section.score, 74);
  assert.equal(section.counts.total, 18);
  assert.equal(section.results.length, 18);
  assert.deepEqual(section.results[1], { id: 'webrtc-leak', axis: 'leak', verdict: 'leak' });
  assertAccepted({ persona: { testedAt: TESTED_AT, ...section } });
});

test('odd grades, scores, counts and results are read as unknown, ungraded, zero or left out', () => {
  assert.equal(gradeOf('E'), 'unknown');
  assert.deepEqual([scoreOf(null), scoreOf(Number.NaN), scoreOf(1.7), scoreOf(0.005)], [null, null, 100, 1]);
  const odd = personaSection(
    {
      grade: 'Z',
      score: 'high',
      counts: { total: 900, match: -1 },
      results: [
        { id: 'x', axis: 'sideways', verdict: 'match' },
        ...Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, axis: 'match', verdict: 'unknown' })),
      ],
    } as unknown as Evaluation,
    '',
  );
  assert.deepEqual(
    [odd.grade, odd.score, odd.counts.total, odd.counts.match, odd.counts.leak],
    ['unknown', null, 64, 0, 0],
  );
  assert.equal(odd.results.length, 32);
  assert.ok(odd.results.every((r) => r.axis === 'match'));
  assertAccepted({ persona: { testedAt: TESTED_AT, ...odd } });
});

test("a country's time zones and likely language come from the browser's Intl; a card is 6 to 8 digits", () => {
  assert.ok(zonesOf('US').includes('America/New_York'));
  assert.deepEqual(zonesOf('DE'), ['Europe/Berlin', 'Europe/Busingen']);
  assert.equal(likelyLanguage('DE'), 'de-DE');
  assert.equal(likelyLanguage('JP'), 'ja-JP');
  assert.deepEqual(
    [cardBin('4111 11'), cardBin('4111-1111'), cardBin('41111'), cardBin('411111111')],
    ['411111', '41111111', null, null],
  );
});

test('the browser observation: zone, offsets now and in January and July of two years, languages, own formats', () => {
  const seen = observeBrowser(new Date('2026-03-01T12:00:00Z'));
  assert.equal(seen.browser.timeZone, Intl.DateTimeFormat().resolvedOptions().timeZone);
  assert.equal(seen.browser.historicalOffsets.length, 4);
  assert.equal(seen.intl.number, new Intl.NumberFormat().format(1234567.89));
  assert.ok(Array.isArray(seen.browser.languages));
});

test('keyboard layouts are told by their letters; no Keyboard API reads as none', async () => {
  assert.equal(layoutOf({ KeyQ: 'a', KeyA: 'q' }), 'azerty');
  assert.equal(layoutOf({ KeyQ: 'q', KeyW: 'w', KeyY: 'z', KeyZ: 'y' }), 'qwertz');
  assert.equal(layoutOf({ KeyQ: 'q', KeyW: 'w', KeyY: 'y' }), 'qwerty');
  assert.equal(layoutOf({ KeyQ: 'q', IntlYen: '¥' }), 'jis');
  assert.equal(await observeKeyboard(undefined), null);
  const keyboard = {
    getLayoutMap: async () =>
      new Map([
        ['KeyQ', 'q'],
        ['KeyW', 'w'],
        ['KeyY', 'y'],
        ['Digit1', '1'],
      ]),
  };
  assert.deepEqual(await observeKeyboard(keyboard), { keys: { KeyQ: 'q', KeyW: 'w', KeyY: 'y' }, layout: 'qwerty' });
});

test('voices listed late get 600 ms; the trace is read for its edge, and a silent trace is unavailable', async () => {
  const clock = new FakeClock(() => ({ kind: 'hang' }));
  const late = observeVoices({ getVoices: () => [], addEventListener: () => undefined }, clock);
  await clock.advance(600);
  assert.deepEqual(await late, { languages: [], count: 0 });
  assert.deepEqual(
    await observeVoices(
      { getVoices: () => [{ lang: 'en-US' }, { lang: 'en-US' }, { lang: 'de-DE' }], addEventListener: () => undefined },
      clock,
    ),
    { languages: ['en-US', 'de-DE'], count: 3 },
  );
  assert.deepEqual(parseTrace('fl=1\nh=x\nip=1.2.3.4\ncolo=FRA\nhttp=http/2\nloc=DE\ntls=TLSv1.3\n'), {
    available: true,
    country: 'DE',
    colo: 'FRA',
    httpProtocol: 'http/2',
    tlsVersion: 'TLSv1.3',
  });
  const silent = observeTrace(clock);
  await clock.advance(6000);
  assert.deepEqual(await silent, { available: false });
  assert.equal(clock.requests.at(-1)!.url, TRACE_URL);
});

test("the other tools' results of this visit are passed on in the reference's slices", () => {
  const slices = observedSections({
    webrtc: {
      testedAt: TESTED_AT,
      servers: [{ id: 'g', url: 'stun:x', ip: '8.8.8.8', natType: 'srflx', countryCode: 'US', org: 'G' }],
    },
  });
  assert.deepEqual(slices, {
    ip: undefined,
    webrtc: { servers: [{ ip: '8.8.8.8', natType: 'srflx', countryCode: 'US', org: 'G' }] },
    dns: undefined,
  });
});
