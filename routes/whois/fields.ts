/** Parsed `key: value` lines of a WHOIS answer: a key seen once holds a string, a repeated key (name servers, statuses) an array. */
export type WhoisFields = Record<string, string | string[]>;

// A key is a short label starting with a letter ("Registrar WHOIS Server",
// "inetnum", "admin-c"); longer text before a colon is prose, not a field.
const FIELD = /^([A-Za-z][A-Za-z0-9 ._/()-]{0,59}?)\s*:\s*(.*?)\s*$/;

/**
 * The fields of a port-43 answer, for API callers that want more than the
 * text (the site shows only `__raw`). Comment lines (`%`, `#`), empty values
 * and URLs that only look like `key: value` are left out; the
 * `>>> Last update of whois database: … <<<` line of gTLD registries counts.
 */
export function whoisFields(text: string): WhoisFields {
  const fields = new Map<string, string | string[]>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim().replace(/^>>>\s*(.*?)\s*<<<$/, '$1');
    if (line === '' || line.startsWith('%') || line.startsWith('#')) continue;
    const match = FIELD.exec(line);
    if (!match) continue;
    const [, key = '', value = ''] = match;
    if (value === '' || value.startsWith('//') || key === '__raw') continue;
    const seen = fields.get(key);
    if (seen === undefined) fields.set(key, value);
    else if (Array.isArray(seen)) seen.push(value);
    else fields.set(key, [seen, value]);
  }
  return Object.fromEntries(fields);
}
