import type { Readable } from 'node:stream';
import { DatasetFormatError, eachLine } from './lines.js';
import { sortedIndexOf } from './sorted.js';

/**
 * The AS-organisation snapshot: sorted `asns` with, at the same position, an
 * index into the organisation names (a name is shared by every AS of an
 * organisation, so each is stored once).
 */
export class AsOrgs {
  constructor(
    private readonly asns: Uint32Array,
    private readonly orgOf: Uint32Array,
    private readonly names: string[],
  ) {}

  get size(): number {
    return this.asns.length;
  }

  /** The name of the AS's organisation (its own AS name when the organisation is unknown). */
  name(asn: number): string | undefined {
    const i = sortedIndexOf(this.asns, asn);
    return i === -1 ? undefined : this.names[this.orgOf[i]!];
  }
}

type Section = 'none' | 'org' | 'aut';

// 2^20 organisations at most; an ASN (< 2^32) times this stays below 2^53.
const ORG_SPAN = 2 ** 20;

/**
 * Stream-parses CAIDA's as-org2info text: an organisation section
 * (`org_id|changed|org_name|country|source`) and an AS section
 * (`aut|changed|aut_name|org_id|opaque_id|source`), each announced by a
 * `# format:` comment. An AS whose organisation is unknown keeps its own AS name.
 */
export async function parseAsOrg(stream: Readable): Promise<AsOrgs> {
  let section: Section = 'none';
  const orgIndex = new Map<string, number>();
  const names: string[] = [];
  const auts: number[] = [];
  await eachLine(stream, (line, lineNo) => {
    if (line.startsWith('#')) {
      const format = /^#\s*format:\s*(\S+)/.exec(line)?.[1];
      if (format?.startsWith('org_id|')) section = 'org';
      else if (format?.startsWith('aut|')) section = 'aut';
      return;
    }
    if (line === '') return;
    const f = line.split('|');
    if (section === 'org') {
      if (f.length < 5) throw new DatasetFormatError(`line ${lineNo}: expected org_id|changed|org_name|country|source`);
      orgIndex.set(f[0]!, names.length);
      names.push(f[2]!);
    } else if (section === 'aut') {
      if (f.length < 6 || !/^\d{1,10}$/.test(f[0]!)) {
        throw new DatasetFormatError(`line ${lineNo}: expected aut|changed|aut_name|org_id|opaque_id|source`);
      }
      let org = orgIndex.get(f[3]!);
      if (org === undefined) {
        org = names.length;
        names.push(f[2]!);
      }
      auts.push(Number(f[0]) * ORG_SPAN + org);
    } else {
      throw new DatasetFormatError(`line ${lineNo}: data before any "# format:" line`);
    }
  });
  if (names.length === 0 || auts.length === 0) throw new DatasetFormatError('no organisations or no ASes in the file');
  if (names.length >= ORG_SPAN) throw new DatasetFormatError('too many organisations');
  // One packed number per AS (asn, then organisation) sorts natively in a
  // typed array, far faster than an array of pairs with a comparator.
  const packed = Float64Array.from(auts).sort();
  const asns = new Uint32Array(packed.length);
  const orgOf = new Uint32Array(packed.length);
  for (let i = 0; i < packed.length; i++) {
    asns[i] = Math.floor(packed[i]! / ORG_SPAN);
    orgOf[i] = packed[i]! % ORG_SPAN;
  }
  return new AsOrgs(asns, orgOf, names);
}
