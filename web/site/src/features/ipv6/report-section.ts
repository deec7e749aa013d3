import type { SectionBody } from '../../lib/report-sections.js';
import { SETTING_NAME, SETTING_OF, TEST_IDS, type Outcome, type TestId } from './readiness.js';

type Section = SectionBody<'ipv6readiness'>;
const MAX_MS = 600000;

/**
 * The outcomes as the report keeps them (contract/report.ts `ipv6readiness`):
 * no address, no origin; the view scores them with the page's rules.
 */
export function toSection(outcomes: Partial<Record<TestId, Outcome>>): Section {
  return {
    tests: TEST_IDS.flatMap((id): Section['tests'] => {
      const outcome = outcomes[id];
      if (!outcome) return [];
      if (outcome.state === 'ok') {
        return [{ id, state: 'ok', ms: Math.min(Math.round(outcome.ms), MAX_MS), family: outcome.family }];
      }
      if (outcome.state === 'failed') return [{ id, state: 'failed', reason: outcome.reason }];
      return [{ id, state: 'not-run' }];
    }),
  };
}

/** The outcomes back from a shared report, a not-run test naming its setting again. */
export function fromSection(section: Section): Partial<Record<TestId, Outcome>> {
  const out: Partial<Record<TestId, Outcome>> = {};
  for (const test of section.tests) {
    const setting = SETTING_OF[test.id];
    if (test.state === 'not-run') out[test.id] = { state: 'not-run', setting: setting ? SETTING_NAME[setting] : '' };
    else if (test.state === 'failed') out[test.id] = { state: 'failed', reason: test.reason ?? 'unreachable' };
    else out[test.id] = { state: 'ok', ms: test.ms ?? 0, family: test.family ?? 'IPv4' };
  }
  return out;
}
