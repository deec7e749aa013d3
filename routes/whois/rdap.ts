import type { Upstream } from '../../lib/upstream.js';
import type { Deadline } from '../../lib/deadline.js';
import type { RdapBootstrap } from '../../datasets/rdap/bootstrap.js';
import { HostRefused, refusedWithoutLookup } from './public-host.js';

const MAX_REFERRALS = 2;
// An RDAP object is a few kilobytes; anything this large is not one.
const RDAP_MAX_BYTES = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The registry answered 404: it holds no object for the query. */
export class RdapNotFound extends Error {
  constructor() {
    super('RDAP server has no object for this query');
    this.name = 'RdapNotFound';
  }
}

export interface RdapAnswer {
  /** The host of the last URL fetched: the registry that answered. */
  server: string;
  data: Record<string, unknown>;
}

/**
 * GET one RDAP object. Registry referrals (RDAP redirects, such as ARIN
 * sending an address to RIPE) are followed only to a base URL of the
 * bootstrap files, at most twice; every other failure throws. A URL whose
 * host no public server can have (a special-use name, a single label, an IP
 * literal outside public space) is refused before any request, even when a
 * bootstrap file lists it. Every hop, body included, ends by `deadline`.
 */
export async function fetchRdap(
  upstream: Upstream,
  bootstrap: RdapBootstrap,
  url: string,
  deadline: Deadline,
): Promise<RdapAnswer> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const host = new URL(target).hostname;
    const refused = refusedWithoutLookup(host);
    if (refused) throw new HostRefused(host, refused);
    const res = await upstream.request(target, {
      headers: { accept: 'application/rdap+json' },
      timeoutMs: deadline.left(),
    });
    if (REDIRECTS.has(res.status)) {
      res.body.destroy();
      const location = typeof res.headers.location === 'string' ? new URL(res.headers.location, target).href : '';
      if (hop >= MAX_REFERRALS || !bootstrap.isKnownBase(location)) {
        throw new Error(`RDAP referral to a server outside the bootstrap files: ${location || 'none'}`);
      }
      target = location;
      continue;
    }
    if (res.status !== 200) {
      res.body.destroy();
      if (res.status === 404) throw new RdapNotFound();
      throw new Error(`RDAP server answered ${res.status}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > RDAP_MAX_BYTES) {
        res.body.destroy();
        throw new Error('RDAP answer larger than the cap');
      }
      chunks.push(chunk as Buffer);
    }
    const data: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new Error('RDAP answer is not an object');
    }
    return { server: new URL(target).hostname, data: data as Record<string, unknown> };
  }
}
