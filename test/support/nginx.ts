import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { fromAppRoot } from '../../lib/app-root.js';
import { freePorts } from './free-ports.js';

/** The `name { … }` block of an nginx file (blocks nest one level at most here). */
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

/**
 * A real nginx (Debian's package; `.ci/run` installs it) on a free loopback
 * port, serving the shipped example `deploy/nginx-instances.conf` as written:
 * its `upstream` block with the instances' front ports in place of the
 * example's, and its `location /` block, without TLS.
 */
export class Nginx {
  private constructor(
    private readonly child: ChildProcess,
    readonly origin: string,
  ) {}

  static async start(dir: string, frontPorts: number[]): Promise<Nginx> {
    const example = await readFile(fromAppRoot('deploy/nginx-instances.conf'), 'utf8');
    const servers = frontPorts.map((port) => `    server 127.0.0.1:${port} max_fails=3 fail_timeout=10s;`).join('\n');
    const upstream = block(example, 'upstream netdiag_front')
      .replace(/^\s*server 127\.0\.0\.1:\d+.*$/gm, '')
      .replace('{', `{\n${servers}`);
    const location = block(example, 'location /');
    const [port] = (await freePorts(1)) as [number];
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
  ${upstream}
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 10m;
    proxy_cache off;
    ${location}
  }
}
`,
    );
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
    return new Nginx(child, origin);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGQUIT');
    await exited;
  }
}
