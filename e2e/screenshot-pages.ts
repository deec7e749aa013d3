import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { storeSampleReport } from './sample-report.js';
import { answerAddressLiterals, DNS_LEAK_PROVIDERS } from './tool-answers.js';

/** One page of the site as npm run screenshots photographs it. */
export interface ShotPage {
  /** The files' first part: `<name>-<lang>-<width>-<theme>.png`. */
  name: string;
  /** Where it is, or how to make it (a stored report) on the running site. */
  path: string | ((site: string) => Promise<string>);
  /** Sets up what this page alone needs before it opens (a provider that fails). */
  prepare?: (page: Page) => Promise<void>;
  /** What the browser tests' watch expects of this page: the failures its state is made of. */
  fails?: RegExp[];
}

const FAILED_LOAD = /console error: Failed to load resource: /;

const FEATURES_DIR = fileURLToPath(new URL('../web/site/src/features/', import.meta.url));
const featureFile = (folder: string): string => `${FEATURES_DIR}${folder}/feature.ts`;
const featureFolders = (): string[] =>
  readdirSync(FEATURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(featureFile(entry.name)))
    .map((entry) => entry.name)
    .sort();

/** Every tool's slug (a feature listed among the tests, at `/<slug>`), read from its folder, so a new tool is photographed without a change here. */
export function toolSlugs(): string[] {
  return featureFolders().filter((slug) => {
    const declared = readFileSync(featureFile(slug), 'utf8');
    return declared.includes(`path: '/${slug}'`) && declared.includes("group: 'tests'");
  });
}

/** The namespaces of the features' own texts (`strings/` beside `feature.ts`): a feature's name, else its folder's. */
export function featureNamespaces(): string[] {
  const folders = readdirSync(FEATURES_DIR, { withFileTypes: true }).filter(
    (entry) => entry.isDirectory() && existsSync(`${FEATURES_DIR}${entry.name}/strings`),
  );
  return folders.map(({ name: folder }) =>
    existsSync(featureFile(folder))
      ? (/name: '([^']+)'/.exec(readFileSync(featureFile(folder), 'utf8'))?.[1] ?? folder)
      : folder,
  );
}

// The tools that ask Cloudflare's trace at an address literal.
const ASKS_ADDRESS_LITERALS = new Set(['addresses', 'rules', 'runall']);

/** Every provider's connection refused: the DNS-leak page's state without any resolver. */
async function dnsLeakBlocked(page: Page): Promise<void> {
  for (const provider of Object.values(DNS_LEAK_PROVIDERS)) {
    await page.route(
      (url) => provider.test(url.hostname),
      (route) => route.abort('connectionrefused'),
    );
  }
}

/** Every route of the site (web/site/src/features/<name>/feature.ts) (npm run screenshots, e2e/phone-pages.spec.ts) with something to show, each tool page, and the states worth a look. */
export function shotPages(): ShotPage[] {
  return [
    { name: 'home', path: '/' },
    { name: 'ip', path: '/ip/1.1.1.1' },
    // Said in the page at once, nothing asked.
    { name: 'ip-reserved', path: '/ip/10.1.2.3' },
    { name: 'whois', path: '/whois?q=example.com' },
    { name: 'whois-address', path: '/whois?q=8.8.8.8' },
    { name: 'dns', path: '/dns?hostname=example.com&type=A' },
    { name: 'mac', path: '/mac/00:00:0C:00:00:00' },
    { name: 'asn', path: '/asn/13335' },
    { name: 'prefix', path: '/prefix/193.0.0.0/21' },
    { name: 'censorship', path: '/censorship?domain=example.com' },
    { name: 'status', path: '/status' },
    { name: 'outages', path: '/outages' },
    // After the home page, so the visitor's own address is in it.
    { name: 'history', path: '/history' },
    ...toolSlugs().map((slug) => ({
      name: slug,
      path: `/${slug}`,
      prepare: ASKS_ADDRESS_LITERALS.has(slug) ? answerAddressLiterals : undefined,
    })),
    {
      name: 'dnsleak-blocked',
      path: '/dnsleak',
      prepare: dnsLeakBlocked,
      fails: [
        /request failed: https:\/\/[^ ]*(ip-api\.com|surfsharkdns\.com|ipleak\.net|fastly-analytics\.com)\//,
        FAILED_LOAD,
      ],
    },
    { name: 'reference', path: '/reference' },
    { name: 'privacy', path: '/privacy' },
    { name: 'watch', path: '/watch' },
    { name: 'profile', path: '/profile' },
    { name: 'signed-in', path: '/signed-in' },
    { name: 'report', path: storeSampleReport },
    { name: 'not-found', path: '/no/such/page' },
  ];
}
