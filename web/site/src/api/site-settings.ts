import type { SiteSettings } from '@contract/site-settings.js';
import { useLoad, type Load } from '../lib/use-load';

export type { SiteSettings };

let pending: Promise<SiteSettings> | null = null;

/**
 * The operator's public settings for the tools (web/site-settings.ts), fetched
 * once per visit and only by a page that needs them; a failure is asked again next time.
 */
export function loadSiteSettings(): Promise<SiteSettings> {
  pending ??= fetch('/site-settings.json', { headers: { accept: 'application/json' } })
    .then((response) => {
      if (!response.ok) throw new Error(`site settings: HTTP ${response.status}`);
      return response.json() as Promise<SiteSettings>;
    })
    .catch((err: unknown) => {
      pending = null;
      throw err;
    });
  return pending;
}

/** The settings as a page's load, for its waiting state, error and retry. */
export function useSiteSettings(): Load<SiteSettings> {
  return useLoad(
    () => 'site-settings',
    () => loadSiteSettings(),
  );
}
