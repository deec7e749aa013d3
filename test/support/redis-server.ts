import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { freePorts } from './free-ports.js';

/**
 * A real redis-server (Debian's package; `.ci/run` installs it) on a free
 * loopback port, without persistence. It can be stopped and started again on
 * the same port, to play an outage, or paused and resumed, to play a hang.
 */
export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly settings: string[],
  ) {}

  /** `settings`: more redis-server arguments, e.g. `['--maxmemory', '4mb', '--maxmemory-policy', 'allkeys-lru']`. */
  static async start(settings: string[] = []): Promise<RedisServer> {
    const [port] = (await freePorts(1)) as [number];
    const server = new RedisServer(port, settings);
    await server.start();
    return server;
  }

  /** The running server's process id (for its CPU time), undefined while stopped. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...this.settings],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const failed = once(child, 'error').then(([err]) => {
      throw new Error(`redis-server could not start (apt-get install -y redis-server): ${(err as Error).message}`);
    });
    const ready = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.includes('Ready to accept connections')) resolve();
      });
    });
    await Promise.race([ready, failed]);
    this.child = child;
  }

  /** Freezes it (SIGSTOP), as a hung server would: connections stay open, nothing is answered. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Lets a paused server run again (SIGCONT): it answers what it was sent meanwhile. */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills it at once, as a crash or a lost host would: clients see their connection drop. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = undefined;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}
