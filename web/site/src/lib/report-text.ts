/**
 * A report section as plain text, for a visitor who pastes it into a question
 * to an assistant: every field by its report name, a list one line per item.
 * It reads any section the same way, so a new section needs nothing here; the
 * report's whitelist (contract/report.ts) already keeps every value short.
 */
export function sectionText(section: object): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(section)) {
    if (key === 'testedAt' || value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      lines.push(`${key}:`);
      for (const item of value) lines.push(`- ${isObject(item) ? pairs(item).join(', ') : String(item)}`);
    } else if (isObject(value)) {
      lines.push(...pairs(value, `${key}.`));
    } else {
      lines.push(`${key}: ${String(value)}`);
    }
  }
  return lines;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function pairs(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, inner]) => {
    if (inner === undefined || inner === null) return [];
    if (isObject(inner)) return pairs(inner, `${prefix}${key}.`);
    if (Array.isArray(inner)) {
      return [`${prefix}${key}: [${inner.map((i) => (isObject(i) ? pairs(i).join(' ') : String(i))).join('; ')}]`];
    }
    return [`${prefix}${key}: ${String(inner)}`];
  });
}
