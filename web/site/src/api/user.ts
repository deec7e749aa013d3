import { authHeaders } from './auth';
import { ApiError, errorFrom } from './client';

interface Usage {
  used?: unknown;
  limit?: unknown;
}

/**
 * The companion API's profile (frontend contract §17) as it may arrive: passed
 * through unchanged, so every field is read as possibly missing or of another type.
 */
export interface UserInfo {
  userLevel?: unknown;
  achievements?: Record<string, { achieved?: unknown; achievedTime?: unknown } | undefined>;
  functionUses?: { total?: unknown };
  quota?: { multiplier?: unknown; features?: Record<string, Usage | undefined> };
}

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = { accept: 'application/json', ...(await authHeaders()), ...init.headers };
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw new ApiError('network', 0, '');
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

/** The signed-in visitor's profile from the companion API (frontend contract §17). */
export async function getUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  const body: unknown = await (await send('/api/getuserinfo', { signal })).json();
  // Passed through from the companion API: anything but an object is read as an empty profile.
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as UserInfo) : {};
}

/** Records an unlocked achievement (§18); the answer is not read, success or failure only. */
export async function putAchievement(achievement: string): Promise<void> {
  const response = await send('/api/updateuserachievement', {
    method: 'PUT',
    body: JSON.stringify({ achievement }),
    headers: { 'content-type': 'application/json' },
  });
  await response.body?.cancel();
}
