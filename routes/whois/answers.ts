import { UpstreamFailure, type LogFields } from '../../lib/upstream-failure.js';

// The spec fixes only NOT_PUBLIC and the statuses; the other 400s are the
// strings of the site's own backend (frontend contract, section 2.3).
export const NO_QUERY = 'No address provided';
export const INVALID_QUERY = 'Invalid IP or address';
export const NOT_PUBLIC = 'Not a public IP address';
export const NOT_FOUND = 'Not found in the registry';
export const LOOKUP_FAILED = 'WHOIS lookup failed';
export const noTldServer = (tld: string) => `No WHOIS or RDAP server for .${tld}`;

/** 502 `WHOIS lookup failed`: every server that could answer failed. */
export class LookupFailed extends UpstreamFailure {
  constructor(logMessage: string, logFields: LogFields) {
    super({ status: 502, error: LOOKUP_FAILED }, logMessage, logFields);
  }
}
