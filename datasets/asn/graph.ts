import type { Readable } from 'node:stream';
import { DatasetFormatError, eachLineBytes, yieldToLoop } from './lines.js';
import { sortedIndexOf } from './sorted.js';

/** How a neighbour relates to the AS whose adjacency list holds it. */
export const REL_PROVIDER = 1;
const REL_CUSTOMER = 2;
const REL_PEER = 3;

// Edge passes over half a million links run in slices this long between
// yields; each slice is a few milliseconds of typed-array work.
const SLICE = 50_000;
// A Tier-1 buys transit from nobody and sells it to at least this many ASes.
// The floor keeps out ASes that look provider-free only because they are
// defunct or tiny; real Tier-1s and the large provider-free regional
// backbones have hundreds to thousands of customers.
export const TIER1_MIN_CUSTOMERS = 100;

const MAX_ASN = 0xffffffff;
// 2^20 distinct ASes at most (about 120,000 exist); an ASN times this stays below 2^53.
const ID_SPAN = 2 ** 20;

export interface RelationCounts {
  upstreams: number;
  downstreams: number;
  peers: number;
}

/**
 * The AS-relationship snapshot in compressed-sparse-row form: `asns` sorted
 * (index = position), `offsets[i]..offsets[i+1]` the slice of `neighbours`
 * (indices) and `relations` (REL_* codes from i's point of view) for AS i.
 * A full snapshot (78k ASes, 500k links) takes about 6 MB, all of it in
 * typed arrays rather than per-AS objects.
 */
export class AsGraph {
  constructor(
    readonly asns: Uint32Array,
    readonly offsets: Uint32Array,
    readonly neighbours: Uint32Array,
    readonly relations: Uint8Array,
    readonly linkCount: number,
    /** Customer count per AS, used to rank providers when the graph is trimmed. */
    readonly customerCounts: Uint32Array,
    /** Indices of the Tier-1s (no provider, at least TIER1_MIN_CUSTOMERS customers), sorted. */
    readonly tier1: Uint32Array,
  ) {}

  get size(): number {
    return this.asns.length;
  }

  /** Bytes held by the graph's arrays. */
  get byteLength(): number {
    return [this.asns, this.offsets, this.neighbours, this.relations, this.customerCounts, this.tier1].reduce(
      (n, a) => n + a.byteLength,
      0,
    );
  }

  indexOf(asn: number): number {
    return sortedIndexOf(this.asns, asn);
  }

  isTier1(index: number): boolean {
    return sortedIndexOf(this.tier1, index) !== -1;
  }

  /** Distinct neighbours of `index` with relation `rel`; a link listed twice counts once. */
  neighboursOf(index: number, rel: number): number[] {
    const out = new Set<number>();
    for (let k = this.offsets[index]!; k < this.offsets[index + 1]!; k++) {
      if (this.relations[k] === rel) out.add(this.neighbours[k]!);
    }
    return [...out];
  }

  /** Distinct providers of `index`, read from the end of its slice where the build put them. */
  providersOf(index: number): number[] {
    const out = new Set<number>();
    for (let k = this.offsets[index + 1]! - 1; k >= this.offsets[index]! && this.relations[k] === REL_PROVIDER; k--) {
      out.add(this.neighbours[k]!);
    }
    return [...out];
  }

  relationCounts(asn: number): RelationCounts | undefined {
    const i = this.indexOf(asn);
    if (i === -1) return undefined;
    return {
      upstreams: this.providersOf(i).length,
      downstreams: this.neighboursOf(i, REL_CUSTOMER).length,
      peers: this.neighboursOf(i, REL_PEER).length,
    };
  }
}

/** Growable typed arrays holding the links as read, before the AS count is known. */
class LinkBuffer {
  a = new Uint32Array(1 << 16);
  b = new Uint32Array(1 << 16);
  rel = new Int8Array(1 << 16);
  length = 0;

  push(a: number, b: number, rel: number): void {
    if (this.length === this.a.length) {
      const grow = <T extends Uint32Array | Int8Array>(old: T, make: (n: number) => T): T => {
        const next = make(old.length * 2);
        next.set(old);
        return next;
      };
      this.a = grow(this.a, (n) => new Uint32Array(n));
      this.b = grow(this.b, (n) => new Uint32Array(n));
      this.rel = grow(this.rel, (n) => new Int8Array(n));
    }
    this.a[this.length] = a;
    this.b[this.length] = b;
    this.rel[this.length] = rel;
    this.length++;
  }
}

const PIPE = 0x7c;
const HASH = 0x23;
const CR = 0x0d;
const ZERO = 0x30;
const NINE = 0x39;
const MINUS = 0x2d;

/**
 * Stream-parses a serial-2 (or serial-1) AS-relationship file: `a|b|rel[|source]`,
 * rel -1 = a is b's provider, 0 = peers, `#` comments. Any other line makes
 * the whole file invalid: a corrupt snapshot must never half-load. Lines are
 * read as bytes, without a string per line.
 */
export async function parseAsRel(stream: Readable): Promise<AsGraph> {
  const index = new Map<number, number>();
  const links = new LinkBuffer();
  const idOf = (asn: number) => {
    let id = index.get(asn);
    if (id === undefined) index.set(asn, (id = index.size));
    return id;
  };
  const bad = (lineNo: number, what: string) => new DatasetFormatError(`line ${lineNo}: ${what}`);
  await eachLineBytes(stream, (buf, start, end, lineNo) => {
    if (end > start && buf[end - 1] === CR) end--;
    if (start === end || buf[start] === HASH) return;
    let p = start;
    const asnField = (): number => {
      let n = 0;
      const from = p;
      while (p < end && buf[p]! >= ZERO && buf[p]! <= NINE) n = n * 10 + (buf[p++]! - ZERO);
      if (p === from || p - from > 10 || n > MAX_ASN) throw bad(lineNo, 'expected an ASN');
      if (buf[p] !== PIPE || p >= end) throw bad(lineNo, 'expected a|b|rel');
      p++;
      return n;
    };
    const a = asnField();
    const b = asnField();
    let rel: number;
    if (buf[p] === ZERO) rel = 0;
    else if (buf[p] === MINUS && buf[p + 1] === ZERO + 1) rel = -1;
    else throw bad(lineNo, 'unknown relation');
    p += rel === 0 ? 1 : 2;
    if (p < end && buf[p] !== PIPE) throw bad(lineNo, 'unknown relation');
    if (a !== b) links.push(idOf(a), idOf(b), rel);
    if (index.size >= ID_SPAN) throw bad(lineNo, 'too many ASes');
  });
  if (links.length === 0) throw new DatasetFormatError('no relationships in the file');
  return buildGraph(index, links);
}

async function buildGraph(index: Map<number, number>, links: LinkBuffer): Promise<AsGraph> {
  const n = index.size;
  // ASN and first-seen id packed in one number sort natively in a typed
  // array; the sorted order gives both the ASN index and the id remapping.
  const packed = new Float64Array(n);
  let p = 0;
  for (const [asn, id] of index) packed[p++] = asn * ID_SPAN + id;
  index.clear();
  await yieldToLoop();
  packed.sort();
  await yieldToLoop();
  const asns = new Uint32Array(n);
  const remap = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = packed[i]!;
    const id = v % ID_SPAN;
    asns[i] = (v - id) / ID_SPAN;
    remap[id] = i;
  }
  await yieldToLoop();

  const offsets = new Uint32Array(n + 1);
  for (let start = 0; start < links.length; start += SLICE) {
    const end = Math.min(links.length, start + SLICE);
    for (let e = start; e < end; e++) {
      offsets[remap[links.a[e]!]! + 1]!++;
      offsets[remap[links.b[e]!]! + 1]!++;
    }
    await yieldToLoop();
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;

  const neighbours = new Uint32Array(links.length * 2);
  const relations = new Uint8Array(links.length * 2);
  // Provider entries fill each slice from its end, everything else from its
  // start, so an AS's providers (what the upstream walk reads) sit together
  // at the end of its slice however many customers and peers it has.
  const front = offsets.slice(0, n);
  const back = offsets.slice(1, n + 1);
  for (let start = 0; start < links.length; start += SLICE) {
    const end = Math.min(links.length, start + SLICE);
    for (let e = start; e < end; e++) {
      const a = remap[links.a[e]!]!;
      const b = remap[links.b[e]!]!;
      const peer = links.rel[e] === 0;
      let k = front[a]!++;
      neighbours[k] = b;
      relations[k] = peer ? REL_PEER : REL_CUSTOMER;
      k = peer ? front[b]!++ : --back[b]!;
      neighbours[k] = a;
      relations[k] = peer ? REL_PEER : REL_PROVIDER;
    }
    await yieldToLoop();
  }
  const customerCounts = new Uint32Array(n);
  const tier1: number[] = [];
  for (let start = 0; start < n; start += SLICE / 10) {
    const end = Math.min(n, start + SLICE / 10);
    for (let i = start; i < end; i++) {
      let customers = 0;
      let providers = 0;
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
        if (relations[k] === REL_CUSTOMER) customers++;
        else if (relations[k] === REL_PROVIDER) providers++;
      }
      customerCounts[i] = customers;
      if (providers === 0 && customers >= TIER1_MIN_CUSTOMERS) tier1.push(i);
    }
    await yieldToLoop();
  }
  return new AsGraph(asns, offsets, neighbours, relations, links.length, customerCounts, Uint32Array.from(tier1));
}
