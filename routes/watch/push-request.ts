import webPush from 'web-push';
import type { PushSubscription } from './record.js';

/** The VAPID identity a push service checks: WEB_PUSH_SUBJECT and the key pair. */
export interface VapidIdentity {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/** The headers and encrypted body that carry `payload` to the subscription's push service, kept there `ttlS`. */
export function pushRequest(subscription: PushSubscription, payload: string, vapid: VapidIdentity, ttlS: number) {
  const details = webPush.generateRequestDetails(subscription, payload, { TTL: ttlS, vapidDetails: vapid });
  return { headers: details.headers as Record<string, string>, body: details.body };
}
