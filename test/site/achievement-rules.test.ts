import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACHIEVEMENTS,
  isAchievement,
  unlockedByEvent,
  unlockedByProfile,
  unlockedBySection,
} from '../../web/site/src/account/achievement-rules.js';

const testedAt = '2026-11-26T06:00:00.000Z';

test('the 27 achievements of the companion API, each once', () => {
  assert.equal(ACHIEVEMENTS.length, 27);
  assert.equal(new Set(ACHIEVEMENTS).size, 27);
  assert.ok(isAchievement('AddSweetAdd'));
  assert.ok(!isAchievement('addsweetadd'));
});

test('speed: each download and upload threshold is reached at its value, not below', () => {
  const speed = (downloadMbps: number | null, uploadMbps: number | null) =>
    unlockedBySection('speedtest', { testedAt, downloadMbps, uploadMbps });
  assert.deepEqual(speed(99.9, 49.9), []);
  assert.deepEqual(speed(100, 50), ['BarelyEnough', 'SteadyGoing']);
  assert.deepEqual(speed(500, 200), ['BarelyEnough', 'RapidPace', 'SteadyGoing', 'TooFastTooSimple']);
  assert.deepEqual(speed(1000, 0), ['BarelyEnough', 'RapidPace', 'TorrentFlow']);
  assert.deepEqual(speed(0, 1000), ['SteadyGoing', 'TooFastTooSimple', 'SwiftAscent']);
  assert.deepEqual(speed(1000, 1000), [...speed(1000, 0), ...speed(0, 1000)]);
  assert.deepEqual(speed(null, null), []);
});

test('proxy rules: eight distinct exits cross the wall, seven do not', () => {
  assert.deepEqual(unlockedBySection('ruletest', { testedAt, uniqueIPCount: 8, workers: [] }), ['CrossingTheWall']);
  assert.deepEqual(unlockedBySection('ruletest', { testedAt, uniqueIPCount: 7, workers: [] }), []);
});

test('proxy detection: any run is Just in case; both scores 0 hide well; either above 50 slips up', () => {
  const run = (proxy: number, vpn: number) =>
    unlockedBySection('invisibility', { testedAt, scores: { proxy, vpn }, flags: [] });
  assert.deepEqual(run(0, 0), ['JustInCase', 'HiddenWell']);
  assert.deepEqual(run(50, 50), ['JustInCase']);
  assert.deepEqual(run(51, 0), ['JustInCase', 'SlipUp']);
  assert.deepEqual(run(0, 90), ['JustInCase', 'SlipUp']);
});

test('address cards: a quality score of 1 or 100, and an address in Antarctica', () => {
  const cards = (...extra: Array<{ qualityScore?: number; countryCode?: string }>) =>
    unlockedBySection('ipinfo', { testedAt, cards: extra.map((card) => ({ source: 'geo-private', ...card })) });
  assert.deepEqual(cards({ qualityScore: 1 }, { qualityScore: 1 }), ['PrettyDirty']);
  assert.deepEqual(cards({ qualityScore: 100, countryCode: 'AQ' }), ['SqueakyClean', 'WalkWithPenguins']);
  assert.deepEqual(cards({ qualityScore: 50, countryCode: 'US' }), []);
});

test('connectivity: a site of the visitor’s own adds, the defaults alone do not', () => {
  const target = { id: 'google', name: 'Google', status: 'ok' as const, timeMs: 12 };
  assert.deepEqual(unlockedBySection('connectivity', { testedAt, targets: [target] }), []);
  assert.deepEqual(
    unlockedBySection('connectivity', { testedAt, targets: [target, { ...target, id: 'own', custom: true }] }),
    ['AddSweetAdd'],
  );
});

test('a section without a rule earns nothing', () => {
  assert.deepEqual(unlockedBySection('dnsleak', { testedAt, providers: [], resolvers: [] } as never), []);
});

test('a loaded profile: I am human, and Making big news past 1000 uses (whatever the shape)', () => {
  assert.deepEqual(unlockedByProfile({ functionUses: { total: 1000 } }), ['IAmHuman']);
  assert.deepEqual(unlockedByProfile({ functionUses: { total: 1001 } }), ['IAmHuman', 'MakingBigNews']);
  assert.deepEqual(unlockedByProfile({ functionUses: { total: '5000' } }), ['IAmHuman']);
  assert.deepEqual(unlockedByProfile({}), ['IAmHuman']);
});

test('security checklist: any tick, more than half, every item', () => {
  const progress = (done: number, total = 42) => unlockedByEvent('checklistProgress', { done, total });
  assert.deepEqual(progress(0), []);
  assert.deepEqual(progress(1), ['SurfaceCheck']);
  assert.deepEqual(progress(21), ['SurfaceCheck']);
  assert.deepEqual(progress(22), ['SurfaceCheck', 'HalfwayThere']);
  assert.deepEqual(progress(41), ['SurfaceCheck', 'HalfwayThere']);
  assert.deepEqual(progress(42), ['SurfaceCheck', 'HalfwayThere', 'FullySecured']);
  assert.deepEqual(progress(0, 0), []);
});

test('censorship, WHOIS and the address history: a block found, the original site looked up, ten countries', () => {
  assert.deepEqual(unlockedByEvent('censorshipTested', { blocked: true }), ['ItIsOpen']);
  assert.deepEqual(unlockedByEvent('censorshipTested', { blocked: false }), []);
  assert.deepEqual(unlockedByEvent('whoisLookup', { query: 'ipcheck.ing' }), ['CuriousCat']);
  assert.deepEqual(unlockedByEvent('whoisLookup', { query: 'www.IPCheck.ing' }), ['CuriousCat']);
  assert.deepEqual(unlockedByEvent('whoisLookup', { query: 'example.com' }), []);
  assert.deepEqual(unlockedByEvent('historyUpdated', { countries: 9 }), []);
  assert.deepEqual(unlockedByEvent('historyUpdated', { countries: 10 }), ['GlobeTrotter']);
});

// What this site cannot offer (web/site/README.md, "Achievements"): no multi-round connectivity mode, no auto-run
// settings, no keyboard-shortcut help, no outage pulse; the donor's is granted by the operator.
const NOT_EARNABLE = ['ResourceHog', 'EnergySaver', 'CleverTrickery', 'HelloWorld', 'GenerousDonor'];

test('every other achievement has a rule that earns it, and the profile says which cannot be earned here', () => {
  const earned = new Set([
    ...unlockedByProfile({ functionUses: { total: 1001 } }),
    ...unlockedBySection('speedtest', { testedAt, downloadMbps: 1000, uploadMbps: 1000 }),
    ...unlockedBySection('ruletest', { testedAt, uniqueIPCount: 8, workers: [] }),
    ...unlockedBySection('invisibility', { testedAt, scores: { proxy: 0, vpn: 0 }, flags: [] }),
    ...unlockedBySection('invisibility', { testedAt, scores: { proxy: 90, vpn: 0 }, flags: [] }),
    ...unlockedBySection('ipinfo', {
      testedAt,
      cards: [
        { source: 'geo-private', qualityScore: 1, countryCode: 'AQ' },
        { source: 'geo-private', qualityScore: 100 },
      ],
    }),
    ...unlockedBySection('connectivity', {
      testedAt,
      targets: [{ id: 'own', name: 'Own', status: 'ok', timeMs: 1, custom: true }],
    }),
    ...unlockedByEvent('checklistProgress', { done: 42, total: 42 }),
    ...unlockedByEvent('censorshipTested', { blocked: true }),
    ...unlockedByEvent('whoisLookup', { query: 'ipcheck.ing' }),
    ...unlockedByEvent('historyUpdated', { countries: 12 }),
  ]);
  assert.deepEqual(
    ACHIEVEMENTS.filter((name) => !earned.has(name)),
    NOT_EARNABLE,
  );
  const achievements = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../web/site/src/features/achievements/strings/en.json'), 'utf8'),
  ) as Record<string, { how: string }>;
  for (const name of NOT_EARNABLE.filter((n) => n !== 'GenerousDonor')) {
    assert.match(achievements[name]!.how, /^Not offered on this site: /);
  }
  assert.match(achievements.GenerousDonor!.how, /operator grants/);
});
