/**
 * The document's tags: which face of the service a route belongs to, and how
 * far a script may rely on it. `x-stability` carries the same word for a
 * reader (the site's reference page marks the stable face by it).
 */
export const FACES = [
  {
    name: 'command-line',
    description:
      'Plain answers for curl, Wget, HTTPie, PowerShell and scripts, on the front listener outside /api. ' +
      'The stable interface: its paths and answers change only with a new major version.',
    'x-stability': 'stable',
  },
  {
    name: 'site-api',
    description:
      "The site's own JSON API under /api, made for its pages and subject to change without notice. " +
      'It answers only requests whose Referer is one of the site\'s pages (403 "What are you doing?" without one).',
    'x-stability': 'subject to change',
  },
  {
    name: 'operations',
    description: "The operator's routes: liveness, readiness and, on the API listener, the metrics.",
    'x-stability': 'stable',
  },
  {
    name: 'reference',
    description: 'This document.',
    'x-stability': 'stable',
  },
] as const;

export type Face = (typeof FACES)[number]['name'];

export const DOCUMENT_DESCRIPTION =
  'Every route of the network-diagnostics service, generated from the schemas the service validates and ' +
  'serialises with. The command-line face (tag `command-line`) is the stable interface for scripts. ' +
  "`/api` (tag `site-api`) is the site's own, subject to change: it refuses callers without the site's Referer.";

const OPERATOR_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The face of a route that names none: by where it lives. */
export function faceOf(url: string): Face | undefined {
  if (url === '/api' || url.startsWith('/api/')) return 'site-api';
  if (OPERATOR_PATHS.has(url)) return 'operations';
  return undefined;
}
