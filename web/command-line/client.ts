import type { IncomingHttpHeaders } from 'node:http';

/** How a command-line client is answered: a line of text, or JSON. */
export type Format = 'text' | 'json';

// The tools people script with, by the product their User-Agent starts with
// (curl/8.5.0, Wget/1.21, HTTPie/3.2, xh/0.22, fetch libfetch/2.0,
// Go-http-client/2.0, ddclient/3.11, aria2/1.37); PowerShell's
// Invoke-WebRequest and Invoke-RestMethod start theirs with Mozilla/5.0 and
// name themselves at the end (PowerShell/7.4.0, WindowsPowerShell/5.1).
const COMMAND_LINE_AGENT =
  /^(?:curl|wget|httpie|httpie-go|xh|fetch libfetch|go-http-client|ddclient|mikrotik|aria2)\/|PowerShell\/\S+$/i;

/**
 * Whether a request is from a command-line client, and the format it asked
 * for; undefined for everyone else, who gets the site. A browser's
 * navigation always accepts text/html, so that settles it first, whatever
 * the User-Agent says; then an Accept naming JSON or plain text, then a
 * command-line tool's User-Agent (which sends Accept: *\/*, or none).
 */
export function commandLineFormat(headers: IncomingHttpHeaders): Format | undefined {
  const accept = headers.accept;
  if (accept !== undefined) {
    if (accept.includes('text/html')) return undefined;
    if (accept.includes('application/json')) return 'json';
    if (accept.includes('text/plain')) return 'text';
  }
  const agent = headers['user-agent'];
  return agent !== undefined && COMMAND_LINE_AGENT.test(agent) ? 'text' : undefined;
}
