import type { Static } from 'typebox';
import type { PersonaEvaluation } from '@contract/private-tools.js';
import type { SectionBody } from '../../lib/report-sections.js';

export type Evaluation = Static<typeof PersonaEvaluation>;
type Section = SectionBody<'persona'>;

const GRADES = ['A', 'B', 'C', 'D'] as const;
const AXES = ['match', 'coherence', 'leak'] as const;
const VERDICTS = ['match', 'mismatch', 'leak', 'unnatural', 'unknown', 'not-applicable'] as const;
const COUNTS = ['total', 'scored', 'match', 'mismatch', 'unnatural', 'leak', 'unknown', 'notApplicable'] as const;
const RESULTS = 32;

const oneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  (values as readonly unknown[]).includes(value);

/** The grade, or `unknown` for anything else the companion sends. */
export const gradeOf = (value: unknown): Section['grade'] => (oneOf(GRADES, value) ? value : 'unknown');

/** The score as a whole percentage, or null when the companion gave none it could grade. */
export function scoreOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(Math.min(1, Math.max(0, value)) * 100) : null;
}

function countsOf(counts: unknown): Section['counts'] {
  const source = (typeof counts === 'object' && counts !== null ? counts : {}) as Record<string, unknown>;
  const read = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) ? Math.min(64, Math.max(0, value)) : 0;
  return Object.fromEntries(COUNTS.map((key) => [key, read(source[key])])) as Section['counts'];
}

/** The report's `persona` section: grade, score, counts, each check's axis and verdict (no detail: it names addresses). */
export function personaSection(evaluation: Evaluation, country: string): Section {
  const results = (Array.isArray(evaluation.results) ? evaluation.results : [])
    .filter((r) => typeof r.id === 'string' && oneOf(AXES, r.axis) && oneOf(VERDICTS, r.verdict))
    .slice(0, RESULTS)
    .map((r) => ({
      id: r.id.slice(0, 48),
      axis: r.axis as Section['results'][number]['axis'],
      verdict: r.verdict as Section['results'][number]['verdict'],
    }));
  return {
    country: /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : '',
    grade: gradeOf(evaluation.grade),
    score: scoreOf(evaluation.score),
    counts: countsOf(evaluation.counts),
    results,
  };
}
