import type { Component } from 'vue';
import type { ReportSectionId } from '../lib/report-sections';

type View = () => Promise<{ default: Component }>;

/** The navigation's groups, in the order it shows them. */
export const NAV_GROUPS = ['tests', 'lookups', 'about'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

/**
 * A page of the site: a folder of its own under features/ (its page, its code,
 * its report view, its texts in strings/), found by its `feature.ts`
 * (features/registry.ts), which the router, the navigation, the report's
 * sections and the privacy page's list all read; features/README.md says what
 * adding one touches. `feature.ts` stays tiny: every one of them is in the
 * first page's bundle; everything it points to loads on demand.
 */
export interface Feature {
  /** The route's name and its texts' namespace: `strings/<locale>.json` become `<name>.<key>`. */
  name: string;
  /** The route's path, in vue-router's syntax. */
  path: string;
  page: View;
  /** The message titling the page; `<name>.title` when absent. */
  title?: string;
  /** Its link in the navigation (to `path` up to its first parameter), smaller order first; none when absent. */
  nav?: { group: NavGroup; order: number; label?: string };
  /** The report section it fills, where the report lists it (smaller first), and the view `/r/<id>` shows it with. */
  report?: { section: ReportSectionId; order: number; view: View };
  /**
   * Who, beside this server, its page talks to, as the privacy page says it:
   * its line among the in-browser tests (`privacy.tools.<key>`), or 'server'
   * when only this server is asked (the privacy page's first section).
   */
  privacy?: { browser: string } | 'server';
  /** Other folders whose texts it shows too (features/globalping and features/achievements hold what several share). */
  uses?: readonly string[];
}

export const defineFeature = (feature: Feature): Feature => feature;
