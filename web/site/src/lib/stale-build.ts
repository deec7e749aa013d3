import { ref } from 'vue';
import type { Router } from 'vue-router';
import { RELOADED_FOR_KEY } from './storage-keys.js';

/**
 * A page's code that could not be fetched, in each browser's words (Chromium, Firefox, Safari) and in Vite's
 * own for a page's stylesheet. After a deploy the open tab's chunk names are gone from the server.
 */
const CHUNK_FAILURE = /dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILURE.test(error.message);
}

/** The page the site could not load even after reloading itself for it; App.vue says so in its main. */
export const unloadablePage = ref<string | null>(null);

// Session storage the browser refuses: nothing is read, and rememberReload's false stops the reload, which
// could not be told from the next one.
function reloadedFor(): string | null {
  try {
    return sessionStorage.getItem(RELOADED_FOR_KEY);
  } catch {
    return null;
  }
}

function rememberReload(path: string): boolean {
  try {
    sessionStorage.setItem(RELOADED_FOR_KEY, path);
    return true;
  } catch {
    return false;
  }
}

function forgetReload(): void {
  try {
    sessionStorage.removeItem(RELOADED_FOR_KEY);
  } catch {
    // Nothing was kept.
  }
}

// Long enough for a worker to fetch a new shell on a slow line; past it the reload goes ahead all the same.
const WORKER_WAIT_MS = 10_000;

/**
 * Lets a new build's service worker take over before the reload (pwa.ts: skipWaiting), so the reload is answered
 * from the new shell; the old worker would answer it with the old index.html, naming the same missing chunks.
 */
async function newBuildsWorker(): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration();
  if (!registration) return;
  await registration.update();
  const next = registration.installing ?? registration.waiting;
  if (!next) return;
  await new Promise<void>((resolve) => {
    const settled = () => next.state === 'activated' || next.state === 'redundant';
    if (settled()) resolve();
    next.addEventListener('statechange', () => settled() && resolve());
    setTimeout(resolve, WORKER_WAIT_MS);
  });
}

async function reloadInto(path: string): Promise<void> {
  // Offline, a reload would trade the open page for the browser's own error page.
  if (!navigator.onLine || reloadedFor() === path || !rememberReload(path)) {
    unloadablePage.value = path;
    return;
  }
  await newBuildsWorker().catch(() => undefined);
  location.assign(path);
}

/**
 * A tab left open across a deploy asks for chunks the new build no longer has: the click did nothing and said
 * nothing. Now the site reloads itself into the page asked for, once per page: the new build's index.html names
 * its own chunks. Should the page fail again after that (a chunk missing from the new build too), it says so.
 */
export function reloadOnStaleBuild(router: Router): void {
  router.onError((error, to) => {
    if (isChunkLoadError(error)) void reloadInto(to.fullPath);
  });
  router.afterEach((_to, _from, failure) => {
    if (failure) return;
    unloadablePage.value = null;
    forgetReload();
  });
}
