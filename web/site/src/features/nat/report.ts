import type { SectionBody } from '../../lib/report-sections.js';
import type { CarrierGrade } from './carrier-grade.js';
import type { FamilySummary } from './mapping.js';

/** The report's `nattest` section: each family's answer and agreement, the likelihood and its kinds of evidence. */
export function natSection(
  servers: number,
  families: readonly FamilySummary[],
  cgn: CarrierGrade,
): SectionBody<'nattest'> {
  return {
    servers: Math.min(servers, 64),
    families: families.slice(0, 2).map(({ family, answer, agreeing, rounds }) => ({
      family,
      mapping: answer,
      agreeing: Math.min(agreeing, 10),
      rounds: Math.min(rounds, 10),
    })),
    carrierGrade: cgn.likelihood,
    evidence: [...new Set(cgn.evidence.map((e) => e.kind))].map((kind) => ({ kind })),
  };
}
