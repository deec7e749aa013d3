import { getJson } from './client';
import type { Configs } from './types';

let pending: Promise<Configs> | null = null;

/** The feature flags, fetched once per visit (they change only with the server's settings). */
export function loadConfigs(): Promise<Configs> {
  pending ??= getJson<Configs>('/api/configs').catch((err: unknown) => {
    pending = null;
    throw err;
  });
  return pending;
}
