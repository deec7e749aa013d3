import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { fromAppRoot } from '../../lib/app-root.js';
import { freePorts } from './free-ports.js';

/** The `name { … }` block of an nginx file. */
function block(text: string, name: string): string {
  const start = text.indexOf(`${name} {`);
  if (start < 0) throw new Error(`no "${name} {" block`);
  let depth = 0;
  for (let i = text.indexOf('{', start); i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  throw new Error(`unclosed "${name}" block`);
}

/** The processes whose parent is `pid` (nginx's workers, beside its master). */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The parent is the second field after the command, which is in parentheses and may hold spaces.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) children.push(Number(entry));
  }
  return children;
}

/**
 * Writes `dir`/nginx.conf: a foreground nginx with one worker whose pid, error
 * log and temporary folders all stay in `dir` (nothing of the machine's own
 * nginx is touched), serving the `http` block's contents given. Returns its path.
 */
export async function writeNginxConf(dir: string, http: string): Promise<string> {
  const conf = join(dir, 'nginx.conf');
  await writeFile(
    conf,
    `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
${http}
}
`,
  );
  return conf;
}

/**
 * A real nginx (Debian's package; `.ci/run` installs it) on a free loopback
 * port, serving the shipped example `deploy/nginx-instances.conf` as written:
 * its `upstream` block with the instances' front ports in place of the
 * example's, and its `server` block, listening on loopback without TLS.
 * Temporary files go under `dir`.
 */
export class Nginx {
  private constructor(
    private readonly child: ChildProcess,
    readonly origin: string,
    private readonly dir: string,
  ) {}

  static async start(dir: string, frontPorts: number[]): Promise<Nginx> {
    const example = await readFile(fromAppRoot('deploy/nginx-instances.conf'), 'utf8');
    const servers = frontPorts.map((port) => `    server 127.0.0.1:${port} max_fails=3 fail_timeout=10s;`).join('\n');
    const [port] = (await freePorts(1)) as [number];
    const upstream = block(example, 'upstream netdiag_front')
      .replace(/^\s*server 127\.0\.0\.1:\d+.*$/gm, '')
      .replace('{', `{\n${servers}`);
    const server = block(example, 'server')
      .replace(/^\s*(listen|server_name|ssl_\w+)\s.*$/gm, '')
      .replace('{', `{\n    listen 127.0.0.1:${port};`);
    // Started as root, nginx's workers run as nobody: they must reach their temp folders in `dir`
    // (a mkdtemp folder is its owner's only), or a buffered answer fails instead of going to disk.
    await chmod(dir, 0o755);
    const conf = await writeNginxConf(dir, `${upstream}\n${server}`);
    const child = spawn('nginx', ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    const failed = once(child, 'error').then(([err]) => {
      throw new Error(`nginx could not start (apt-get install -y nginx): ${(err as Error).message}`);
    });
    const origin = `http://127.0.0.1:${port}`;
    const up = (async () => {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
        try {
          await (await request(`${origin}/`)).body.dump();
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    })();
    await Promise.race([up, failed]);
    return new Nginx(child, origin, dir);
  }

  /**
   * Bytes in nginx's proxy temp files now. nginx unlinks such a file as it
   * creates it, so the folder looks empty: the files are found through its
   * processes' open descriptors.
   */
  async proxyTempBytes(): Promise<number> {
    const temp = join(this.dir, 'proxy');
    const pids = [this.child.pid!, ...(await childrenOf(this.child.pid!))];
    let bytes = 0;
    for (const pid of pids) {
      for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
        const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
        if (!target.startsWith(temp)) continue;
        bytes += (await stat(`/proc/${pid}/fd/${fd}`).catch(() => ({ size: 0 }))).size;
      }
    }
    return bytes;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGQUIT');
    await exited;
  }
}
