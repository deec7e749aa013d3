import { Report } from '../contract/report.js';
import { FULL_REPORT } from '../test/support/fake-routes/platform.js';

/**
 * Stores the tests' report with every section the whitelist allows
 * (masked addresses, fields left out, nulls) through the site's own API, as
 * its Share button would, and returns its page: `/r/<id>` then shows every
 * tool's view at once.
 */
export async function storeSampleReport(site: string, report: unknown = FULL_REPORT): Promise<string> {
  const response = await fetch(`${site}/api/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', referer: `${site}/` },
    body: JSON.stringify({ report, ttlDays: 1 }),
  });
  if (response.status !== 201) {
    throw new Error(`the service refused the sample report: ${response.status} ${await response.text()}`);
  }
  const { id } = (await response.json()) as { id: string };
  return `/r/${id}`;
}

interface SchemaNode {
  type?: string;
  description?: string;
  maxLength?: number;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
}

// Unbroken and of the widest letter: no space or hyphen a line could break at, the value a layout fits worst.
const FILLER = 'W';

/** `value` with each free text the whitelist bounds (`stringUpTo`) and the target (`ipOrDomain`) at its longest. */
function atMaxLength(schema: SchemaNode, value: unknown): unknown {
  if (typeof value === 'string' && schema.maxLength !== undefined) {
    if (/^string \(max \d+\)$/.test(schema.description ?? '')) return FILLER.repeat(schema.maxLength);
    // A name the site's check accepts: letters and a top-level domain.
    if (schema.description === 'IP address or domain name') return `${'w'.repeat(schema.maxLength - 4)}.com`;
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => atMaxLength(schema.items!, item));
  if (typeof value === 'object' && value !== null) {
    const node = schema.anyOf?.find((branch) => branch.type === 'object') ?? schema;
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, atMaxLength(node.properties![key]!, field)]),
    );
  }
  return value;
}

/** The tests' report with every free-text field at the longest the service stores. */
export const MAXED_REPORT = atMaxLength(Report as SchemaNode, FULL_REPORT);
