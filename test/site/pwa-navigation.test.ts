import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_PAGES } from '../../web/site/pwa.js';

// What the service worker answers with the kept shell when offline, and what it leaves to the service.
const shellAnswers = (pathAndQuery: string) => !NOT_PAGES.some((pattern) => pattern.test(pathAndQuery));

test('every page of the site, its query string whatever it holds, gets the shell from the worker', () => {
  for (const page of [
    '/',
    '/ip/8.8.8.8',
    '/ip/2a01:4f8:c0c:1234::1',
    '/prefix/8.8.8.0/24',
    '/asn/13335',
    '/whois?q=example.com',
    '/dns?hostname=example.com&type=TXT',
    '/censorship?domain=twitter.com',
    '/r/abcdefghijklmnopqrstuv',
    '/apis',
    '/metrics-and-more',
  ]) {
    assert.equal(shellAnswers(page), true, page);
  }
});

test('the service’s answers and files are never answered with the shell', () => {
  for (const path of [
    '/api',
    '/api/configs',
    '/api?x=1',
    '/healthz',
    '/readyz?verbose=1',
    '/metrics',
    '/site-settings.json',
    '/robots.txt',
    '/sw.js',
    '/manifest.webmanifest',
    '/icons/icon-192.png?v=2',
  ]) {
    assert.equal(shellAnswers(path), false, path);
  }
});
