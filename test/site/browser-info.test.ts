import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarize } from '../../web/site/src/features/browser/summary.js';
import { browserSection, readFacts, type Environment } from '../../web/site/src/features/browser/facts.js';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROMIUM_HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36';

test('the User-Agent alone: browser, engine, OS and device by the names people know', () => {
  assert.deepEqual(summarize(FIREFOX_LINUX), {
    browser: { name: 'Firefox', version: '133.0' },
    // Gecko's version is the rv: token, not the frozen Gecko/20100101 date.
    engine: { name: 'Gecko', version: '133.0' },
    os: { name: 'Linux' },
    device: 'desktop',
  });
  assert.deepEqual(summarize(SAFARI_IPHONE), {
    browser: { name: 'Safari', version: '17.5' },
    engine: { name: 'WebKit', version: '605.1.15' },
    os: { name: 'iOS', version: '17.5' },
    device: 'mobile',
  });
  // Windows is named by its version name, not the User-Agent's NT number; Blink takes Chrome's version.
  assert.deepEqual(summarize(CHROME_WINDOWS), {
    browser: { name: 'Chrome', version: '131.0.0.0' },
    engine: { name: 'Blink', version: '131.0.0.0' },
    os: { name: 'Windows', version: '10' },
    device: 'desktop',
  });
});

test('Client Hints give the full versions and the real OS version the reduced User-Agent freezes', () => {
  const summary = summarize(CHROME_WINDOWS, {
    platform: 'Windows',
    platformVersion: '15.0.0',
    fullVersionList: [
      { brand: 'Not?A_Brand', version: '99.0.0.0' },
      { brand: 'Chromium', version: '131.0.6778.86' },
      { brand: 'Google Chrome', version: '131.0.6778.86' },
    ],
  });
  assert.deepEqual(summary.browser, { name: 'Chrome', version: '131.0.6778.86' });
  assert.deepEqual(summary.engine, { name: 'Blink', version: '131.0.6778.86' });
  assert.deepEqual(summary.os, { name: 'Windows', version: '11' });
  assert.deepEqual(summarize(CHROME_WINDOWS, { platform: 'Windows', platformVersion: '10.0.0' }).os, {
    name: 'Windows',
    version: '10',
  });
});

test('a Chromium build without a brand of its own is Chromium, though its User-Agent says Chrome', () => {
  const summary = summarize(CHROMIUM_HEADLESS, {
    platform: 'Linux',
    platformVersion: '6.1.0',
    fullVersionList: [
      { brand: 'Chromium', version: '142.0.7444.59' },
      { brand: 'Not_A Brand', version: '24.0.0.0' },
    ],
  });
  assert.deepEqual(summary.browser, { name: 'Chromium', version: '142.0.7444.59' });
  // Linux's kernel version in the hints is not the distribution's: the OS keeps the User-Agent's reading.
  assert.deepEqual(summary.os, { name: 'Linux' });
});

test('an empty or unknown User-Agent is told as unknown, never a guess or a throw', () => {
  assert.deepEqual(summarize(''), { browser: {}, engine: {}, os: {} });
  assert.deepEqual(summarize('curl/8.0'), { browser: {}, engine: {}, os: {} });
});

const environment = (navigator: Environment['navigator']): Environment => ({
  navigator,
  screen: { width: 390, height: 844, colorDepth: 24 },
  devicePixelRatio: 3,
  timeZone: 'Europe/Berlin',
});

test('the facts a browser offers are read as given; the ones it lacks are null, not guessed', () => {
  const full = readFacts(
    environment({
      languages: ['de-DE', 'en'],
      cookieEnabled: true,
      doNotTrack: '1',
      globalPrivacyControl: true,
      hardwareConcurrency: 8,
      deviceMemory: 4,
      maxTouchPoints: 5,
      connection: { effectiveType: '4g', downlink: 9.5, rtt: 50, saveData: false },
    }),
  );
  assert.deepEqual(full, {
    languages: ['de-DE', 'en'],
    timeZone: 'Europe/Berlin',
    screen: { width: 390, height: 844, colorDepth: 24, pixelRatio: 3 },
    connection: { effectiveType: '4g', downlink: 9.5, rtt: 50, saveData: false },
    cookies: true,
    doNotTrack: true,
    globalPrivacyControl: true,
    cores: 8,
    memory: 4,
    touchPoints: 5,
  });
  const bare = readFacts(environment({ language: 'fr', doNotTrack: 'unspecified' }));
  assert.deepEqual(bare.languages, ['fr']);
  assert.equal(bare.connection, null);
  assert.equal(bare.doNotTrack, null);
  assert.equal(bare.globalPrivacyControl, null);
  assert.equal(bare.cores, null);
  assert.equal(bare.memory, null);
  assert.equal(bare.cookies, false);
});

test('the report section keeps the whitelist’s fields and lengths, and leaves the flags and hardware out', () => {
  const facts = readFacts(
    environment({
      languages: [...Array.from({ length: 20 }, (_, i) => `l${i}`), 'x-very-long-language-tag'],
      connection: { effectiveType: '4g', downlink: 9.5, rtt: 50.4, saveData: true },
      hardwareConcurrency: 8,
    }),
  );
  const section = browserSection(
    { browser: { name: 'B'.repeat(80), version: '1'.repeat(40) }, engine: {}, os: { name: 'Linux' } },
    facts,
  );
  assert.deepEqual(section, {
    browser: { name: 'B'.repeat(64), version: '1'.repeat(32) },
    os: { name: 'Linux' },
    timezone: 'Europe/Berlin',
    languages: Array.from({ length: 16 }, (_, i) => `l${i}`),
    display: { width: 390, height: 844, pixelRatio: 3 },
    connection: { effectiveType: '4g', downlink: 9.5, rtt: 50 },
  });
  assert.equal(browserSection(summarize(FIREFOX_LINUX), readFacts(environment({}))).connection, null);
});
