import { getJson } from './client';
import { loadSiteSettings } from './site-settings';

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

/** The project's repository, `owner/name`, from the public settings; null when they cannot be had. */
export function loadRepository(): Promise<string | null> {
  return loadSiteSettings().then(
    (settings) => settings.repository || null,
    () => null,
  );
}
