import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { EDITIONS, type Edition } from '../../datasets/geo/databases.js';
import type { FakeUpstream } from './fake-upstream.js';

export const MAXMIND_HOST = 'download.maxmind.com';

/** The dated name MaxMind gives an edition's release, as its archive folder and checksum line name it. */
const release = (edition: Edition) => `${EDITIONS[edition]}_20261120`;

/** A tar.gz laid out like MaxMind's: one dated folder holding the database and its licence. */
export function maxmindArchive(edition: Edition, mmdb: Buffer): Buffer {
  const src = mkdtempSync(join(tmpdir(), 'fake-maxmind-'));
  try {
    const folder = release(edition);
    mkdirSync(join(src, folder));
    writeFileSync(join(src, folder, `${EDITIONS[edition]}.mmdb`), mmdb);
    writeFileSync(join(src, folder, 'LICENSE.txt'), 'test licence');
    const file = join(src, 'archive.tar.gz');
    tar.c({ sync: true, gzip: true, cwd: src, portable: true, file }, [folder]);
    return readFileSync(file);
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Serves one edition's archive and checksum on `fake`, as the download service does (GET and HEAD). */
export function serveMaxmind(
  fake: FakeUpstream,
  edition: Edition,
  tgz: Buffer,
  lastModified: Date,
  checksum = sha256(tgz),
): void {
  const path = `/geoip/databases/${EDITIONS[edition]}/download`;
  const headers = { 'last-modified': lastModified.toUTCString(), 'content-type': 'application/gzip' };
  fake.on('*', MAXMIND_HOST, path, (req, res) => {
    const suffix = req.query.get('suffix');
    if (suffix === 'tar.gz.sha256') return void res.writeHead(200).end(`${checksum}  ${release(edition)}.tar.gz\n`);
    if (suffix !== 'tar.gz') return void res.writeHead(400).end('bad suffix');
    res.writeHead(200, { ...headers, 'content-length': String(tgz.length) });
    res.end(req.method === 'HEAD' ? undefined : tgz);
  });
}
