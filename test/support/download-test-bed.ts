import { afterEach, beforeEach } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeUpstream } from './fake-upstream.js';
import { fakeUpstreamPerFile } from './fake-upstream-per-file.js';

export interface DownloadTestBed {
  /** The loopback fake every download of the file's tests reaches, emptied before each test. */
  readonly fake: FakeUpstream;
  /** A fresh folder per test, removed after it. */
  readonly work: string;
}

/** Registers the file's hooks for dataset download tests; read the fields inside tests only. */
export function downloadTestBed(prefix: string): DownloadTestBed {
  const fake = fakeUpstreamPerFile();
  let work: string | undefined;
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(() => rm(work!, { recursive: true, force: true }));
  return {
    fake,
    get work() {
      return work!;
    },
  };
}
