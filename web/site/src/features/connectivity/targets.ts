import { DEFAULT_SITES, SITE_GROUPS, type Site } from './lists.js';

/** A site in the visitor's list, with the group it came from (a SITE_GROUPS key, or CUSTOM). */
export interface Target extends Site {
  group: string;
}

export const CUSTOM = 'custom';
/** The most sites a list holds, as the reference caps it: a pass probes them all at once. */
export const MAX_TARGETS = 60;
/** A name the visitor gives is cut here, so the table stays readable on a phone. */
export const MAX_NAME = 32;

export type Refusal = 'noHost' | 'notHttps' | 'duplicate' | 'full';
export type Change = { list: Target[] } | { refusal: Refusal };

/** The first list: `first`, the operator's (lists.ts firstSites), else the reference's. */
export function defaultTargets(first: readonly Site[] = DEFAULT_SITES): Target[] {
  return first.map((site) => ({ ...site, group: 'defaults' }));
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * What the visitor typed as a site's address, as the URL to probe: `https://`
 * when no scheme is given, a bare origin probed at its favicon. Only HTTPS:
 * the site's own page is HTTPS, and a browser blocks plain HTTP from it.
 */
export function readAddress(text: string): { url: string } | { refusal: Refusal } {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return { refusal: 'noHost' };
  }
  if (url.protocol !== 'https:') return { refusal: 'notHttps' };
  if (!url.hostname.includes('.') || url.hostname.startsWith('.') || url.hostname.endsWith('.')) {
    return { refusal: 'noHost' };
  }
  // A fetch refuses a URL that carries credentials, and the fragment never reaches the site.
  url.username = '';
  url.password = '';
  url.hash = '';
  if (url.pathname === '/' && !url.search) url.pathname = '/favicon.ico';
  return { url: url.href };
}

/** Adds sites to the list: those whose host is already there are skipped; all the rest or none, under the cap. */
export function addSites(list: readonly Target[], sites: readonly Target[]): Change {
  const hosts = new Set(list.map((t) => hostOf(t.url)));
  const fresh: Target[] = [];
  for (const site of sites) {
    const host = hostOf(site.url);
    if (hosts.has(host)) continue;
    hosts.add(host);
    fresh.push(site);
  }
  if (!fresh.length) return { refusal: 'duplicate' };
  if (list.length + fresh.length > MAX_TARGETS) return { refusal: 'full' };
  return { list: [...list, ...fresh] };
}

/** Adds one of the groups a visitor can pick; the "defaults" group is `first`, the first list. */
export function addGroup(list: readonly Target[], group: string, first: readonly Site[] = DEFAULT_SITES): Change {
  const sites = group === 'defaults' ? first : (SITE_GROUPS[group] ?? []);
  return addSites(
    list,
    sites.map((site) => ({ ...site, group })),
  );
}

/** Adds a site the visitor named; `now` makes its id unique. */
export function addCustom(list: readonly Target[], name: string, address: string, now: number): Change {
  const read = readAddress(address);
  if ('refusal' in read) return read;
  let id = `custom-${now.toString(36)}`;
  for (let n = 1; list.some((t) => t.id === id); n++) id = `custom-${now.toString(36)}-${n}`;
  const label = name.trim().slice(0, MAX_NAME) || hostOf(read.url);
  return addSites(list, [{ id, name: label, url: read.url, group: CUSTOM }]);
}

export function removeTarget(list: readonly Target[], id: string): Target[] {
  return list.filter((t) => t.id !== id);
}

export function removeGroup(list: readonly Target[], group: string): Target[] {
  return list.filter((t) => t.group !== group);
}

/** The list's groups in the order they were first added, each with its sites. */
export function grouped(list: readonly Target[]): Array<{ group: string; targets: Target[] }> {
  const groups = new Map<string, Target[]>();
  for (const target of list) groups.set(target.group, [...(groups.get(target.group) ?? []), target]);
  return [...groups].map(([group, targets]) => ({ group, targets }));
}
