import type { Feature } from './define-feature';

export type { Feature };

// Each `feature.ts` imports defineFeature from its own module: importing it
// from here, which imports every `feature.ts`, would be a cycle.
const found = import.meta.glob<Feature>('./*/feature.ts', { eager: true, import: 'default' });

/** A feature and the folder it was found in, which holds its texts. */
export interface Found extends Feature {
  folder: string;
}

const UNLISTED = Number.MAX_SAFE_INTEGER;

/** Every page of the site, in navigation order (unlisted ones last). */
export const FEATURES: readonly Found[] = Object.entries(found)
  .map(([file, feature]) => ({ ...feature, folder: file.split('/')[1]! }))
  .sort((a, b) => (a.nav?.order ?? UNLISTED) - (b.nav?.order ?? UNLISTED));

/** The features that fill a report section, in the report's order. */
export const REPORTING = FEATURES.filter((feature) => feature.report).sort((a, b) => a.report!.order - b.report!.order);

/** The report's sections, in its order: the ones the service accepts (frontend contract 19.3), a test holds them together. */
export const SECTION_IDS = REPORTING.map((feature) => feature.report!.section);
