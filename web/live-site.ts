import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { securityHeaders, type SecurityHeaders } from './security-headers.js';
import { DEFAULT_CAPS, loadSite, type MemoryCaps, type Site } from './site-files.js';

export interface LiveSiteOptions {
  logger: Logger;
  caps?: MemoryCaps;
  /** The security headers each file's answers carry. */
  headers?: SecurityHeaders;
}

// A build writes many files in a burst (Vite's bundle, then each .br and .gz);
// one read after the burst instead of one per file.
const SETTLE_MS = 250;

interface Watch {
  ino: number;
  watcher: FSWatcher;
}

/**
 * A build folder held in memory and read again when it changes, so a rebuild
 * is served without a restart. Each folder of the build is watched, and the
 * nearest existing folder above the build for the build folder itself being
 * removed or made. The watches are not recursive (fs.watch's recursive mode
 * on Linux is young in Node 20); a folder made again at the same path (a
 * build emptying its output) is told by its inode and watched afresh.
 * While the folder holds no index.html (a build in progress, or the build
 * removed), the last complete build keeps being served.
 */
export class LiveSite {
  current: Site;
  /** Settles when the first read of the folder is over, whatever it found; until then `current` is empty. */
  readonly loaded: Promise<void>;
  /** Whether `loaded` has settled, so a request need not wait on it. */
  read = false;
  private watches = new Map<string, Watch>();
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private again = false;
  private closed = false;

  private constructor(
    readonly root: string,
    private readonly log: Logger,
    private readonly caps: MemoryCaps,
    private readonly headers: SecurityHeaders,
  ) {
    this.current = { files: new Map(), fallback: undefined, folders: [], memoryBytes: 0 };
    this.loaded = this.firstRead();
  }

  /**
   * Starts reading `root`, then watching it; a folder that cannot be read is
   * served as not built. Returns at once: the listener opens while the files
   * are read, and a request that needs them waits for `loaded`.
   */
  static open(root: string, { logger, caps = DEFAULT_CAPS, headers = securityHeaders() }: LiveSiteOptions): LiveSite {
    return new LiveSite(root, logger, caps, headers);
  }

  private async firstRead(): Promise<void> {
    try {
      this.current = await loadSite(this.root, this.caps, this.headers);
    } catch (err) {
      this.log.error({ err, root: this.root }, 'the site folder cannot be read');
    }
    this.read = true;
    if (this.closed) return;
    const notBuilt = `the site is not built: ${this.root} has no index.html; run \`npm run build\``;
    if (this.current.fallback) this.logLoaded('site loaded');
    else this.log.warn({ root: this.root }, notBuilt);
    this.arm(this.current.folders);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const { watcher } of this.watches.values()) watcher.close();
    this.watches.clear();
  }

  private logLoaded(msg: string): void {
    this.log.info({ root: this.root, files: this.current.files.size, memoryBytes: this.current.memoryBytes }, msg);
  }

  /**
   * Watches the build's folders and the one above, keeping the watches that
   * still see the same folder. Whether a new watch began: a file written
   * into that folder before it did was not heard.
   */
  private arm(folders: Site['folders']): boolean {
    let above = dirname(this.root);
    let name = basename(this.root);
    while (!existsSync(above) && dirname(above) !== above) {
      name = basename(above);
      above = dirname(above);
    }
    const wanted = new Map<string, { ino: number; relevant: (changed: string | null) => boolean }>();
    const aboveIno = statSync(above, { throwIfNoEntry: false })?.ino;
    if (aboveIno !== undefined) {
      wanted.set(above, { ino: aboveIno, relevant: (changed) => changed === null || changed === name });
    }
    for (const folder of folders) wanted.set(folder.path, { ino: folder.ino, relevant: () => true });

    for (const [path, { ino, watcher }] of this.watches) {
      if (wanted.get(path)?.ino === ino) continue;
      watcher.close();
      this.watches.delete(path);
    }
    let began = false;
    for (const [path, { ino, relevant }] of wanted) {
      if (this.watches.has(path)) continue;
      try {
        const watcher = watch(path, { persistent: false }, (_event, changed) => {
          if (relevant(changed)) this.schedule();
        });
        watcher.on('error', () => this.schedule());
        this.watches.set(path, { ino, watcher });
        began = true;
      } catch {
        // Gone between the read and the watch: the folder above has heard it.
        this.schedule();
      }
    }
    return began;
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.reading) this.again = true;
      else void this.reload();
    }, SETTLE_MS);
  }

  private async reload(): Promise<void> {
    this.reading = true;
    let folders = this.current.folders;
    try {
      const next = await loadSite(this.root, this.caps, this.headers);
      if (this.closed) return;
      folders = next.folders;
      if (next.fallback || !this.current.fallback) {
        const first = !this.current.fallback;
        this.current = next;
        if (next.fallback) this.logLoaded(first ? 'site loaded' : 'site reloaded');
      } else {
        this.log.info(
          { root: this.root },
          'the site folder has no index.html (a build in progress?); the last complete build is still served',
        );
      }
    } catch (err) {
      this.log.error({ err, root: this.root }, 'the site folder cannot be read again; the last read is still served');
    } finally {
      this.reading = false;
      if (!this.closed && (this.arm(folders) || this.again)) {
        this.again = false;
        this.schedule();
      }
    }
  }
}
