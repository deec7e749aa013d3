import type { Config } from '../../fastify.config.js';
import type { NameResolver } from '../../lib/network/name-resolver.js';
import { Upstream } from '../../lib/upstream.js';
import type { PushSubscription, WatchEntry } from './record.js';
import { checkPushEndpoint, checkWebhook, publicOnlyLookup, TargetRefused, type TargetRules } from './target.js';

/** What a webhook receives (JSON) and a push subscription (encrypted): the new address and the one before. */
export interface WatchNotice {
  event: 'address-changed' | 'test';
  address: string;
  asn: string | null;
  network: string | null;
  country: string | null;
  previous: string | null;
  at: string;
}

/** How one delivery went, as the test route answers it. */
export interface Delivery {
  delivered: boolean;
  /** The receiver's HTTP status; null when none came. */
  status: number | null;
  /** Why it was not delivered, in plain words; null when it was. */
  reason: string | null;
}

// A push service keeps an undelivered notice this long for a browser that is offline.
const PUSH_TTL_S = 24 * 60 * 60;
// A receiver's answer is not read: a few KB is plenty to end the exchange.
const ANSWER_BYTES = 4096;

// web-push is loaded with the first notice sent by web push, as undici is with the
// first upstream call (lib/upstream.ts): most servers never send one, and every start
// paid for its module graph.
let pushRequests: Promise<typeof import('./push-request.js')> | undefined;
const loadPushRequests = () => (pushRequests ??= import('./push-request.js'));

type NotifierConfig = Pick<
  Config,
  | 'SITE_URL'
  | 'WATCH_WEBHOOK_TIMEOUT_MS'
  | 'WATCH_WEBHOOK_ALLOW_PRIVATE'
  | 'WEB_PUSH_VAPID_PUBLIC_KEY'
  | 'WEB_PUSH_VAPID_PRIVATE_KEY'
  | 'WEB_PUSH_SUBJECT'
>;

/** Whether the three web push settings are set: without any one of them web push is off. */
export const webPushConfigured = (config: NotifierConfig): boolean =>
  Boolean(config.WEB_PUSH_VAPID_PUBLIC_KEY && config.WEB_PUSH_VAPID_PRIVATE_KEY && config.WEB_PUSH_SUBJECT);

/**
 * Sends a watch's notices to the URLs its visitor gave: through an upstream
 * client of their own (lib/upstream.ts, with WATCH_WEBHOOK_TIMEOUT_MS), never
 * through UPSTREAM_OVERRIDE_ORIGIN (the visitor's URL is the target), and with
 * a connector that refuses a private address at connect time unless
 * WATCH_WEBHOOK_ALLOW_PRIVATE allows it.
 */
export class Notifier {
  readonly rules: TargetRules;
  private readonly upstream: Upstream;

  constructor(
    private readonly config: NotifierConfig,
    names: NameResolver,
  ) {
    this.rules = { allowPrivate: config.WATCH_WEBHOOK_ALLOW_PRIVATE, names };
    // The client's own pool, opened with the first notice, checks each connection's address.
    this.upstream = new Upstream({
      timeoutMs: config.WATCH_WEBHOOK_TIMEOUT_MS,
      siteUrl: config.SITE_URL,
      overrideOrigin: '',
      names,
      connectLookup: config.WATCH_WEBHOOK_ALLOW_PRIVATE ? names.lookup : publicOnlyLookup(names),
      // No logger: a webhook's path often is its secret (a chat service's), and the client logs URLs at debug.
    });
  }

  get webPush(): boolean {
    return webPushConfigured(this.config);
  }

  async close(): Promise<void> {
    await this.upstream.close();
  }

  /** POSTs the notice as JSON to the webhook, checked again first: its name may resolve elsewhere by now. */
  async webhook(url: string, notice: WatchNotice): Promise<Delivery> {
    return this.deliver(async () => {
      const target = await checkWebhook(url, this.rules);
      return this.upstream.bytes(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(notice),
        maxBytes: ANSWER_BYTES,
        provider: 'watch-webhook',
      });
    });
  }

  /** The notice, encrypted for the subscription by web-push, sent to its push service. */
  async push(subscription: PushSubscription, notice: WatchNotice): Promise<Delivery> {
    if (!this.webPush) return { delivered: false, status: null, reason: 'web push is off on this server' };
    return this.deliver(async () => {
      const endpoint = await checkPushEndpoint(subscription.endpoint, this.rules);
      const { pushRequest } = await loadPushRequests();
      const vapid = {
        subject: this.config.WEB_PUSH_SUBJECT,
        publicKey: this.config.WEB_PUSH_VAPID_PUBLIC_KEY,
        privateKey: this.config.WEB_PUSH_VAPID_PRIVATE_KEY,
      };
      const { headers, body } = pushRequest(subscription, JSON.stringify(notice), vapid, PUSH_TTL_S);
      return this.upstream.bytes(endpoint, {
        method: 'POST',
        headers,
        body,
        maxBytes: ANSWER_BYTES,
        provider: 'watch-push',
      });
    });
  }

  private async deliver(send: () => Promise<{ status: number }>): Promise<Delivery> {
    try {
      const { status } = await send();
      const delivered = status >= 200 && status < 300;
      return { delivered, status, reason: delivered ? null : `the receiver answered ${status}` };
    } catch (err) {
      if (err instanceof TargetRefused) return { delivered: false, status: null, reason: err.message };
      const timedOut = (err as Error).name === 'AbortError';
      return {
        delivered: false,
        status: null,
        reason: timedOut
          ? `no answer within ${this.config.WATCH_WEBHOOK_TIMEOUT_MS} ms`
          : `the receiver could not be reached (${(err as NodeJS.ErrnoException).code ?? 'connection failed'})`,
      };
    }
  }
}

/** The notice of a change from `previous` to `entry`. */
export function changeNotice(entry: WatchEntry, previous: WatchEntry | undefined): WatchNotice {
  return {
    event: 'address-changed',
    address: entry.address,
    asn: entry.asn,
    network: entry.network,
    country: entry.country,
    previous: previous?.address ?? null,
    at: entry.firstSeen,
  };
}
