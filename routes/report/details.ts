import { Pointer } from 'typebox/schema';
import type { TLocalizedValidationError } from 'typebox/error';
import { Settings } from 'typebox/system';
import { checkReport, Report } from '../../contract/report.js';

/** A 400 names at most this many problems, so a garbage body cannot make a huge answer. */
export const MAX_DETAILS = 20;

// TypeBox buffers 8 failures by default (a bound against costly diagnostics);
// with the summaries it adds beside real failures, that would name only a few
// problems. The process-wide setting stays a small bound; only failed checks
// gather failures, and only this module reads more than the first.
const FAILURES_BUFFERED = 2 * MAX_DETAILS;
if (Settings.Get().maxErrors < FAILURES_BUFFERED) Settings.Set({ maxErrors: FAILURES_BUFFERED });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The readable path of a JSON pointer into the report, walking the value so an
 * array index reads `[0]` and an object key `.key`: `report.sections.ipinfo.cards[0].countryCode`.
 */
function readablePath(report: unknown, pointer: string): { path: string; value: unknown } {
  let path = 'report';
  let value = report;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += Array.isArray(value) ? `[${key}]` : `.${key}`;
    value = isObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return { path, value };
}

/** The schema a failure points at; its `description` is what the value should have been. */
function failedSchema(error: TLocalizedValidationError): Record<string, unknown> {
  const schema = Pointer.Get(Report, error.schemaPath.replace(/^#/, ''));
  return isObject(schema) ? schema : {};
}

/** One TypeBox failure as `<path>: <problem>` lines; none for the summaries TypeBox adds beside the real failure. */
function describe(report: unknown, error: TLocalizedValidationError): string[] {
  const { path, value } = readablePath(report, error.instancePath);
  switch (error.keyword) {
    case 'required':
      return error.params.requiredProperties.map((key) => `${path}.${key}: missing required key`);
    case 'additionalProperties': {
      const what = error.instancePath === '/sections' ? 'unknown section' : 'unknown key';
      return error.params.additionalProperties.map((key) => `${path}.${key}: ${what}`);
    }
    // The same unknown key again ("schema is false"), and a nullable's summary: the lines above and its member say it.
    case 'boolean':
    case 'anyOf':
      return [];
    case 'minProperties':
      return [`${path}: at least one section required`];
    case 'maxItems':
      return [`${path}: too many items (max ${error.params.limit})`];
  }
  if (value === null) return [`${path}: unexpected null`];
  const schema = failedSchema(error);
  // A non-null value fails the `null` member of a nullable too; its other member names the problem.
  if (schema.type === 'null') return [];
  if (schema.type === 'object' || schema.type === 'array') return [`${path}: expected ${schema.type}`];
  return [`${path}: ${typeof schema.description === 'string' ? `expected ${schema.description}` : error.message}`];
}

/** Why `report` is not a valid report: at most MAX_DETAILS `<path>: <problem>` lines; empty when it is valid. */
export function reportProblems(report: unknown): string[] {
  if (!isObject(report)) return ['report: expected object'];
  const details: string[] = [];
  for (const error of checkReport.Errors(report)) {
    details.push(...describe(report, error));
    if (details.length >= MAX_DETAILS) break;
  }
  return details.slice(0, MAX_DETAILS);
}
