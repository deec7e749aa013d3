import type { Clock } from '../../lib/fetch-within.js';
import type { ReportSections } from '../../lib/report-sections.js';
import { pause } from '../../lib/poll.js';

/** What the browser says about its own locale (the reference's `browser` and `intl` parts). */
export function observeBrowser(now: Date, intl = Intl) {
  const options = intl.DateTimeFormat().resolvedOptions();
  const year = now.getUTCFullYear();
  const offset = (date: Date) => -date.getTimezoneOffset();
  const hourCycle = new intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hourCycle ?? '';
  return {
    browser: {
      timeZone: options.timeZone,
      offsetMinutes: offset(now),
      historicalOffsets: [year, year - 1].flatMap((y) => [
        offset(new Date(Date.UTC(y, 0, 15))),
        offset(new Date(Date.UTC(y, 6, 15))),
      ]),
      languages: [...(typeof navigator === 'undefined' ? [] : navigator.languages)],
    },
    intl: {
      number: new intl.NumberFormat().format(1234567.89),
      date: new intl.DateTimeFormat(undefined, { timeZone: 'UTC' }).format(new Date('2026-01-23T15:04:05Z')),
      hourCycle,
    },
  };
}

const LAYOUT_KEYS = ['KeyQ', 'KeyW', 'KeyA', 'KeyY', 'KeyZ', 'Semicolon', 'IntlRo', 'IntlYen'] as const;
interface KeyboardApi {
  getLayoutMap(): Promise<Map<string, string>>;
}

/** The layout the keys name: jis, azerty, qwertz, qwerty or other. */
export function layoutOf(keys: Partial<Record<string, string>>): string {
  if (keys.IntlYen || keys.IntlRo) return 'jis';
  if (keys.KeyQ === 'a' && keys.KeyA === 'q') return 'azerty';
  if (keys.KeyY === 'z' && keys.KeyZ === 'y') return 'qwertz';
  if (keys.KeyQ === 'q' && keys.KeyW === 'w' && keys.KeyY === 'y') return 'qwerty';
  return 'other';
}

/** The keyboard layout, where the browser offers it (Chromium's Keyboard API); null elsewhere. */
export async function observeKeyboard(keyboard: KeyboardApi | undefined) {
  if (!keyboard?.getLayoutMap) return null;
  try {
    const map = await keyboard.getLayoutMap();
    const keys: Record<string, string> = {};
    for (const code of LAYOUT_KEYS) {
      const value = map.get(code);
      if (value) keys[code] = value;
    }
    return { keys, layout: layoutOf(keys) };
  } catch {
    return null;
  }
}

interface Speech {
  getVoices(): Array<{ lang: string }>;
  addEventListener(type: 'voiceschanged', run: () => void, options: { once: boolean }): void;
}

/** The speech voices' language tags; a browser that lists them late gets 600 ms. Null without speech synthesis. */
export async function observeVoices(speech: Speech | undefined, clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>) {
  if (!speech) return null;
  let voices = speech.getVoices();
  if (voices.length === 0) {
    const changed = new Promise<void>((resolve) => speech.addEventListener('voiceschanged', resolve, { once: true }));
    await Promise.race([changed, pause(clock, 600)]);
    voices = speech.getVoices();
  }
  return { languages: [...new Set(voices.map((voice) => voice.lang))], count: voices.length };
}

/** Cloudflare's trace as the reference reads it: the edge's country and location, HTTP and TLS versions. */
export function parseTrace(text: string) {
  const fields = Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.split('='))
      .filter((pair) => pair.length === 2),
  ) as Record<string, string>;
  if (!fields.loc) return { available: false };
  return {
    available: true,
    country: fields.loc,
    colo: fields.colo ?? '',
    httpProtocol: fields.http ?? '',
    tlsVersion: fields.tls ?? '',
  };
}

export const TRACE_URL = 'https://cloudflare.com/cdn-cgi/trace';
const TRACE_MS = 6000;

/** Asks Cloudflare's trace within 6 s; `{available: false}` when it does not answer. */
export async function observeTrace(clock: Clock) {
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(), TRACE_MS);
  try {
    const response = await clock.fetch(TRACE_URL, { cache: 'no-store', signal: controller.signal });
    return response.ok ? parseTrace(await response.text()) : { available: false };
  } catch {
    return { available: false };
  } finally {
    clock.clearTimeout(timer);
  }
}

/** The other tools' results of this visit the companion compares (the reference's ip, webrtc and dns slices). */
export function observedSections(sections: Partial<ReportSections>) {
  return {
    ip: sections.ipinfo ? { cards: sections.ipinfo.cards } : undefined,
    webrtc: sections.webrtc
      ? {
          servers: sections.webrtc.servers.map(({ ip, natType, countryCode, org }) => ({
            ip,
            natType,
            countryCode,
            org,
          })),
        }
      : undefined,
    dns: sections.dnsleak
      ? {
          providers: sections.dnsleak.providers.map(({ name, ip, countryCode, org }) => ({
            name,
            ip,
            countryCode,
            org,
          })),
        }
      : undefined,
  };
}
