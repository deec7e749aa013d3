import ipaddr from 'ipaddr.js';

/**
 * A small, test-only writer of the MaxMind DB format (version 2.0), so tests
 * and the benchmark build their own databases and a fresh clone needs nothing
 * outside the repository. It supports what GeoLite2-style files use: maps,
 * UTF-8 strings, doubles, uint16/uint32/uint64, arrays and booleans, an IPv6
 * tree with IPv4 at ::/96, and 24-, 28- or 32-bit records.
 */

export type MmdbValue =
  string | number | boolean | bigint | MmdbValue[] | { [key: string]: MmdbValue } | Uint16 | Uint32 | Double;

/** Wrappers that pin a number's MaxMind type; a bare number is a uint32 when it is a whole number below 2^32, else a double. */
export class Uint16 {
  constructor(readonly value: number) {}
}
export class Uint32 {
  constructor(readonly value: number) {}
}
export class Double {
  constructor(readonly value: number) {}
}

export interface MmdbNetwork {
  /** "1.2.3.0/24" or "2001:db8::/32". */
  network: string;
  data: { [key: string]: MmdbValue };
}

export interface MmdbOptions {
  databaseType: string;
  languages?: string[];
  description?: Record<string, string>;
  recordSize?: 24 | 28 | 32;
  /** Seconds since the epoch. */
  buildEpoch?: number;
  networks: Iterable<MmdbNetwork>;
}

const METADATA_MARKER = Buffer.from([0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com')]);

const TYPE = { utf8: 2, double: 3, map: 7, uint16: 5, uint32: 6, uint64: 9, array: 11, boolean: 14 } as const;

function control(type: number, size: number): Buffer {
  let sizeBytes: number[];
  let sizeField: number;
  if (size < 29) {
    sizeField = size;
    sizeBytes = [];
  } else if (size < 29 + 256) {
    sizeField = 29;
    sizeBytes = [size - 29];
  } else if (size < 285 + 65536) {
    sizeField = 30;
    const n = size - 285;
    sizeBytes = [n >> 8, n & 0xff];
  } else {
    sizeField = 31;
    const n = size - 65821;
    sizeBytes = [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  }
  const head = type <= 7 ? [(type << 5) | sizeField] : [sizeField, type - 7];
  return Buffer.from([...head, ...sizeBytes]);
}

function uintBytes(value: bigint): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return Buffer.from(bytes);
}

/** Encodes one value of the data section. */
export function encodeValue(value: MmdbValue): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(TYPE.utf8, bytes.length), bytes]);
  }
  if (typeof value === 'boolean') return control(TYPE.boolean, value ? 1 : 0);
  if (typeof value === 'bigint') {
    const bytes = uintBytes(value);
    return Buffer.concat([control(TYPE.uint64, bytes.length), bytes]);
  }
  if (value instanceof Uint16 || value instanceof Uint32) {
    const bytes = uintBytes(BigInt(value.value));
    return Buffer.concat([control(value instanceof Uint16 ? TYPE.uint16 : TYPE.uint32, bytes.length), bytes]);
  }
  if (value instanceof Double || typeof value === 'number') {
    const n = value instanceof Double ? value.value : value;
    if (!(value instanceof Double) && Number.isInteger(n) && n >= 0 && n < 2 ** 32) return encodeValue(new Uint32(n));
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(n);
    return Buffer.concat([control(TYPE.double, 8), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(TYPE.array, value.length), ...value.map(encodeValue)]);
  const entries = Object.entries(value);
  return Buffer.concat([
    control(TYPE.map, entries.length),
    ...entries.flatMap(([k, v]) => [encodeValue(k), encodeValue(v)]),
  ]);
}

const EMPTY = -1;

/** A binary trie over 128-bit keys; a child is EMPTY, a node index (>= 0) or a data leaf (-2 - dataIndex). */
class Tree {
  left = new Int32Array(1024);
  right = new Int32Array(1024);
  count = 1;

  constructor() {
    this.left[0] = EMPTY;
    this.right[0] = EMPTY;
  }

  private newNode(fill: number): number {
    if (this.count === this.left.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.left = grow(this.left);
      this.right = grow(this.right);
    }
    const n = this.count++;
    this.left[n] = fill;
    this.right[n] = fill;
    return n;
  }

  insert(bits: Uint8Array, prefixLength: number, leaf: number): void {
    let node = 0;
    for (let depth = 0; depth < prefixLength; depth++) {
      const bit = (bits[depth >> 3]! >> (7 - (depth & 7))) & 1;
      const side = bit ? this.right : this.left;
      if (depth === prefixLength - 1) {
        side[node] = leaf;
        return;
      }
      let child = side[node]!;
      // A deeper network inside a shorter one: the shorter one's data fills the rest.
      if (child < 0) {
        child = this.newNode(child);
        (bit ? this.right : this.left)[node] = child;
      }
      node = child;
    }
  }
}

function writeRecords(tree: Tree, recordSize: 24 | 28 | 32, dataOffsets: number[]): Buffer {
  const nodeCount = tree.count;
  const nodeBytes = recordSize / 4;
  const out = Buffer.alloc(nodeCount * nodeBytes);
  const value = (child: number) =>
    child === EMPTY ? nodeCount : child >= 0 ? child : nodeCount + 16 + dataOffsets[-2 - child]!;
  for (let n = 0; n < nodeCount; n++) {
    const l = value(tree.left[n]!);
    const r = value(tree.right[n]!);
    const at = n * nodeBytes;
    if (recordSize === 24) {
      out.writeUIntBE(l, at, 3);
      out.writeUIntBE(r, at + 3, 3);
    } else if (recordSize === 28) {
      out.writeUIntBE(l & 0xffffff, at, 3);
      out[at + 3] = ((l >>> 24) << 4) | (r >>> 24);
      out.writeUIntBE(r & 0xffffff, at + 4, 3);
    } else {
      out.writeUInt32BE(l, at);
      out.writeUInt32BE(r, at + 4);
    }
  }
  return out;
}

const V4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

function keyOf(network: string): { bits: Uint8Array; prefixLength: number } {
  const v4 = V4_CIDR.exec(network);
  if (v4 && Number(v4[5]) <= 32 && v4.slice(1, 5).every((o) => Number(o) <= 255)) {
    const bits = new Uint8Array(16);
    for (let i = 0; i < 4; i++) bits[12 + i] = Number(v4[i + 1]);
    return { bits, prefixLength: 96 + Number(v4[5]) };
  }
  const [addr, len] = ipaddr.parseCIDR(network);
  if (addr.kind() === 'ipv4') {
    const bits = new Uint8Array(16);
    bits.set(addr.toByteArray(), 12);
    return { bits, prefixLength: 96 + len };
  }
  return { bits: Uint8Array.from(addr.toByteArray()), prefixLength: len };
}

/** Builds a whole .mmdb file. Equal data objects are stored once. */
export function writeMmdb(options: MmdbOptions): Buffer {
  const recordSize = options.recordSize ?? 28;
  const tree = new Tree();
  const dataIndex = new Map<string, number>();
  const dataChunks: Buffer[] = [];
  const dataOffsets: number[] = [];
  let dataSize = 0;
  // Generators reuse one object for many networks; identity is checked before the costlier content key.
  const byRef = new Map<object, number>();
  for (const { network, data } of options.networks) {
    let index = byRef.get(data);
    const json =
      index === undefined ? JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) : '';
    index ??= dataIndex.get(json);
    if (index === undefined) {
      index = dataOffsets.length;
      const encoded = encodeValue(data);
      dataIndex.set(json, index);
      dataOffsets.push(dataSize);
      dataChunks.push(encoded);
      dataSize += encoded.length;
    }
    byRef.set(data, index);
    const { bits, prefixLength } = keyOf(network);
    tree.insert(bits, prefixLength, -2 - index);
  }
  const limit = 2 ** recordSize;
  if (tree.count + 16 + dataSize >= limit) throw new Error(`database too large for ${recordSize}-bit records`);
  const metadata = encodeValue({
    node_count: new Uint32(tree.count),
    record_size: new Uint16(recordSize),
    ip_version: new Uint16(6),
    database_type: options.databaseType,
    languages: options.languages ?? ['en'],
    binary_format_major_version: new Uint16(2),
    binary_format_minor_version: new Uint16(0),
    build_epoch: BigInt(options.buildEpoch ?? Math.floor(Date.now() / 1000)),
    description: options.description ?? { en: `${options.databaseType} test database` },
  });
  return Buffer.concat([
    writeRecords(tree, recordSize, dataOffsets),
    Buffer.alloc(16),
    ...dataChunks,
    METADATA_MARKER,
    metadata,
  ]);
}
