import { shallowReactive } from 'vue';
import type { Report as ReportBody } from '@contract/report.js';

// The report's sections as the service validates them (frontend contract 19.3):
// one schema, on the server, types both ends.
export type ReportSections = ReportBody['sections'];
export type ReportSectionId = keyof ReportSections;
/** What a tool hands over: its section without `testedAt`, which is stamped here. */
export type SectionBody<K extends ReportSectionId> = Omit<NonNullable<ReportSections[K]>, 'testedAt'>;

/** One page's latest result for a section: which page ran it (its path) and the section. */
export interface SectionEntry<K extends ReportSectionId = ReportSectionId> {
  page: string;
  section: NonNullable<ReportSections[K]>;
}

// Each page's latest result of each section during this visit (memory only:
// nothing of it is kept once the tab closes), the material of "Share report".
// Keyed by section, then by the page that ran it: a run on one page replaces
// only that page's own result, never another page's (the home page and the
// addresses page both fill `ipinfo`; the run-all page fills several).
const collected = shallowReactive(new Map<ReportSectionId, ReadonlyMap<string, SectionEntry>>());

/** Told of every result a tool hands over; achievements listen, once a visitor is signed in. */
export type SectionListener = <K extends ReportSectionId>(id: K, section: NonNullable<ReportSections[K]>) => void;
const listeners = new Set<SectionListener>();

/** Listens to every result recorded from now on; the returned function stops listening. */
export function onSectionRecorded(listener: SectionListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Keeps a tool's latest result for the report, as the page at `page` (the current one by default) ran it. */
export function recordSection<K extends ReportSectionId>(
  id: K,
  body: SectionBody<K>,
  page: string = location.pathname,
): void {
  const section = { testedAt: new Date().toISOString(), ...body } as NonNullable<ReportSections[K]>;
  collected.set(id, new Map(collected.get(id)).set(page, { page, section }));
  for (const listener of listeners) listener(id, section);
}

/** Every page's result for each section, in `order` (the report's: SECTION_IDS of features/registry.ts), newest first. */
export function collectedEntries(order: readonly ReportSectionId[]): Array<[ReportSectionId, SectionEntry[]]> {
  return order.flatMap((id) => {
    const entries = [...(collected.get(id)?.values() ?? [])];
    entries.sort((a, b) => b.section.testedAt.localeCompare(a.section.testedAt));
    return entries.length ? [[id, entries] as [ReportSectionId, SectionEntry[]]] : [];
  });
}

/**
 * The entry of each section a report takes unless the visitor chooses otherwise: the one `page` ran
 * when it ran one, else the newest. The share form names each one's page and time, so no choice is silent.
 */
export function defaultEntries(order: readonly ReportSectionId[], page: string): Map<ReportSectionId, SectionEntry> {
  return new Map(
    collectedEntries(order).map(([id, entries]) => [id, entries.find((e) => e.page === page) ?? entries[0]!]),
  );
}

/** The sections collected so far, one per section as defaultEntries picks it from the current page. */
export function collectedSections(order: readonly ReportSectionId[]): Partial<ReportSections> {
  return sectionsOf(defaultEntries(order, location.pathname));
}

/** The report's `sections` of the chosen entries. */
export function sectionsOf(chosen: ReadonlyMap<ReportSectionId, SectionEntry>): Partial<ReportSections> {
  const out: Partial<ReportSections> = {};
  for (const [id, entry] of chosen) Object.assign(out, { [id]: entry.section });
  return out;
}
