import { domainToASCII } from 'node:url';

const LABEL = /^_?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LABEL = /^[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The lower-cased ASCII form of a syntactically valid domain name, or undefined. */
export function normaliseDomain(value: string): string | undefined {
  // Unicode input becomes its punycode form; ASCII input is only lower-cased.
  const ascii = /^[\x21-\x7e]+$/.test(value) ? value.toLowerCase() : domainToASCII(value);
  if (!ascii || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2) return undefined;
  const top = labels[labels.length - 1]!;
  if (!TOP_LABEL.test(top)) return undefined;
  return labels.slice(0, -1).every((label) => label.length <= 63 && LABEL.test(label)) ? ascii : undefined;
}
