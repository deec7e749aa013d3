/**
 * What a visitor does that fills no report section but can earn an achievement. A page says it here and
 * knows nothing of who listens (the achievements, once a visitor is signed in), so the tools stay
 * independent of sign-in. The latest of each is kept for this visit, in memory only: a visitor who signs in
 * afterwards is judged on what they did before, as recorded sections are.
 */
export interface SiteEvents {
  /** The security checklist's ticks, when the page opens and at each change. */
  checklistProgress: { done: number; total: number };
  /** A censorship history shown: whether some country's tier is `confirmed` or `likely`. */
  censorshipTested: { blocked: boolean };
  /** A WHOIS answer shown for this query. */
  whoisLookup: { query: string };
  /** The address history after the home page recorded the visitor's address: its distinct countries. */
  historyUpdated: { countries: number };
}
export type SiteEventName = keyof SiteEvents;

export type SiteEventListener = <K extends SiteEventName>(name: K, detail: SiteEvents[K]) => void;

const latest: Partial<SiteEvents> = {};
const listeners = new Set<SiteEventListener>();

export function emitSiteEvent<K extends SiteEventName>(name: K, detail: SiteEvents[K]): void {
  latest[name] = detail;
  for (const listener of listeners) listener(name, detail);
}

/** Hears every event from now on; the returned function stops listening. */
export function onSiteEvent(listener: SiteEventListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The latest of each event so far in this visit. */
export function latestSiteEvents(): Partial<SiteEvents> {
  return { ...latest };
}
