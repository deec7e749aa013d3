import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import dnsPacket, { type Answer, type Question } from 'dns-packet';

/** What the fake server sends for one name and type. */
export interface DnsReply {
  answers?: Answer[];
  rcode?: 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED';
  delayMs?: number;
  /** Never answers. */
  drop?: boolean;
}

const RCODES = { NXDOMAIN: 3, SERVFAIL: 2, REFUSED: 5 } as const;

/**
 * A real UDP DNS server on 127.0.0.1 (dns-packet on dgram), for
 * DNS_OVERRIDE_SERVER. Unregistered questions get NXDOMAIN; `delayMs` delays
 * every answer on top of a reply's own delay.
 */
export class FakeDns {
  readonly questions: Question[] = [];
  delayMs = 0;
  private readonly replies = new Map<string, DnsReply>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(private readonly socket: Socket) {}

  static async start(delayMs = 0, port = 0): Promise<FakeDns> {
    const socket = createSocket('udp4');
    const fake = new FakeDns(socket);
    fake.delayMs = delayMs;
    socket.on('message', (message, remote) => fake.handle(message, remote));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, '127.0.0.1', () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return fake;
  }

  /** Lets the process exit while the server still listens (the benchmark never closes it). */
  unref(): this {
    this.socket.unref();
    return this;
  }

  /** `127.0.0.1:PORT`, as DNS_OVERRIDE_SERVER and resolver entries take it. */
  get address(): string {
    return `127.0.0.1:${this.socket.address().port}`;
  }

  on(name: string, type: string, reply: DnsReply): this {
    this.replies.set(`${name.toLowerCase()}|${type}`, reply);
    return this;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private handle(message: Buffer, remote: RemoteInfo): void {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    this.questions.push(question);
    const reply = this.replies.get(`${question.name.toLowerCase()}|${question.type}`) ?? { rcode: 'NXDOMAIN' };
    if (reply.drop) return;
    const packet = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (reply.rcode ? RCODES[reply.rcode] : 0),
      questions: query.questions,
      answers: reply.answers ?? [],
    });
    const send = () => this.socket.send(packet, remote.port, remote.address);
    const delay = this.delayMs + (reply.delayMs ?? 0);
    if (!delay) return send();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      send();
    }, delay);
    this.timers.add(timer);
  }
}
