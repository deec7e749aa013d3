import assert from 'node:assert/strict';
import { checkReport } from '../../contract/report.js';

/** Asserts the service accepts a report holding `sections`, naming the first errors when it does not. */
export function assertAccepted(sections: Record<string, unknown>): void {
  const report = { v: 1, generatedAt: '2026-11-26T06:00:00.000Z', origin: 'localhost', locale: 'en', sections };
  assert.ok(checkReport.Check(report), JSON.stringify([...checkReport.Errors(report)].slice(0, 3)));
}

export const TESTED_AT = '2026-11-26T06:00:00.000Z';
