import { mkdtemp, mkdir, copyFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CAIDA_FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures', 'publicdata.caida.org');

export interface DataDir {
  path: string;
  remove: () => Promise<void>;
}

/** A fresh DATA_DIR; with `snapshots`, the fixture snapshots are already in place, as after an earlier download. */
export async function dataDir(snapshots: { relationships?: boolean; organisations?: boolean } = {}): Promise<DataDir> {
  const path = await mkdtemp(join(tmpdir(), 'asn-test-'));
  await mkdir(join(path, 'asn'), { recursive: true });
  if (snapshots.relationships) {
    await copyFile(join(CAIDA_FIXTURES, '20261101.as-rel2.txt'), join(path, 'asn', 'as-rel2.txt'));
  }
  if (snapshots.organisations) {
    await copyFile(join(CAIDA_FIXTURES, '20261101.as-org2info.txt'), join(path, 'asn', 'as-org2info.txt'));
  }
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
