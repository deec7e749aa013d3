import { shallowReactive } from 'vue';
import type { Report as ReportBody } from '@contract/report.js';

// The report's sections as the service validates them (frontend contract 19.3):
// one schema, on the server, types both ends.
export type ReportSections = ReportBody['sections'];
export type ReportSectionId = keyof ReportSections;
/** What a tool hands over: its section without `testedAt`, which is stamped here. */
export type SectionBody<K extends ReportSectionId> = Omit<NonNullable<ReportSections[K]>, 'testedAt'>;

// Each tool's latest result during this visit (memory only: nothing of it is
// kept once the tab closes), the material of "Share report".
const collected = shallowReactive<Partial<ReportSections>>({});

/** Told of every result a tool hands over; achievements listen, once a visitor is signed in. */
export type SectionListener = <K extends ReportSectionId>(id: K, section: NonNullable<ReportSections[K]>) => void;
const listeners = new Set<SectionListener>();

/** Listens to every result recorded from now on; the returned function stops listening. */
export function onSectionRecorded(listener: SectionListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Keeps a tool's latest result for the report; a newer run replaces it. */
export function recordSection<K extends ReportSectionId>(id: K, body: SectionBody<K>): void {
  const section = { testedAt: new Date().toISOString(), ...body } as NonNullable<ReportSections[K]>;
  collected[id] = section;
  for (const listener of listeners) listener(id, section);
}

/** The sections collected so far, in `order` (the report's: SECTION_IDS of features/registry.ts). */
export function collectedSections(order: readonly ReportSectionId[]): Partial<ReportSections> {
  const out: Partial<ReportSections> = {};
  for (const id of order) if (collected[id]) Object.assign(out, { [id]: collected[id] });
  return out;
}
