import type { Software } from './summary';

/** "Chrome 131.0.6778.85", or whichever half is known; empty when neither is. */
export const softwareText = (software: Software | undefined): string =>
  [software?.name, software?.version].filter(Boolean).join(' ');
