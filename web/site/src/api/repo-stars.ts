import { getJson } from './client';
import { loadSiteSettings, type SiteSettings } from './site-settings';

/**
 * The repository's star count (`/api/repo-stars`, contract §16), or null when
 * the route fails or answers without a number: the footer then shows nothing.
 */
export function loadRepoStars(): Promise<number | null> {
  return getJson<{ stars?: unknown }>('/api/repo-stars').then(
    (body) => (typeof body.stars === 'number' && Number.isFinite(body.stars) ? body.stars : null),
    () => null,
  );
}

/** The repository whose stars the footer shows, `owner/name`, from the public settings; null when unset or unknown. */
export function loadRepository(): Promise<string | null> {
  return loadSiteSettings().then(
    (settings) => settings.repository || null,
    () => null,
  );
}

/** Where this deployment's code is and its licence, from the public settings; null when they cannot be had. */
export function loadSource(): Promise<SiteSettings['source'] | null> {
  return loadSiteSettings().then(
    (settings) => settings.source,
    () => null,
  );
}
