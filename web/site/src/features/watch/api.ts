import type { Created, DeliveryAnswer, PushSubscription, WatchAnswer } from '@contract/watch.js';
import { ApiError, errorFrom } from '../../api/client';
import { signInHeaders } from '../../lib/sign-in-headers';

// The address watch's API (routes/watch/README.md), each call an answer or an ApiError.

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('network', 0, '');
  }
  if (!response.ok) throw await errorFrom(response);
  return (response.status === 204 ? null : await response.json()) as T;
}

const at = (token: string) => `/api/watch/${encodeURIComponent(token)}`;

/** A new watch; signed in, it also goes on the visitor's list. */
export const createWatch = async (): Promise<Created> => call('POST', '/api/watch', undefined, await signInHeaders());
export const readWatch = (token: string): Promise<WatchAnswer> => call('GET', at(token));
export const setWebhook = (token: string, url: string | null): Promise<{ webhook: string | null }> =>
  call('PUT', `${at(token)}/webhook`, { url });
export const testWebhook = (token: string): Promise<DeliveryAnswer> => call('POST', `${at(token)}/webhook/test`);
export const setPush = (token: string, subscription: PushSubscription | null): Promise<{ subscribed: boolean }> =>
  call('PUT', `${at(token)}/push`, { subscription });
export const deleteWatch = (token: string): Promise<null> => call('DELETE', at(token));
