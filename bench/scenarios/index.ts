import type { BenchCase } from '../scenario.js';

/** Every capability's benchmark cases; each capability adds its own module's list here. */
export const allCases: BenchCase[] = [];
