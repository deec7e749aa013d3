import type { SectionBody } from '../../lib/report-sections.js';
import type { UaSummary, Software } from './summary.js';

/** The Network Information API's hints, which only Chromium offers. */
export interface ConnectionHints {
  effectiveType?: string;
  /** Mb/s, as the browser estimates it (rounded by the browser to 25 kb/s). */
  downlink?: number;
  /** Round-trip estimate in ms (rounded by the browser to 25 ms). */
  rtt?: number;
  saveData?: boolean;
}

/** What this browser tells any page about itself, beyond the User-Agent. */
export interface BrowserFacts {
  languages: string[];
  timeZone: string | null;
  screen: { width: number; height: number; colorDepth: number; pixelRatio: number };
  connection: ConnectionHints | null;
  cookies: boolean;
  /** The Do Not Track header's setting: true, false, or null when unset or not offered. */
  doNotTrack: boolean | null;
  /** Global Privacy Control: true, false, or null when the browser does not know it. */
  globalPrivacyControl: boolean | null;
  cores: number | null;
  /** Device memory in GiB, rounded down by the browser to a power of two; Chromium only. */
  memory: number | null;
  touchPoints: number;
}

/** The parts of `navigator` read here, as a browser offers them (every one may be missing). */
export interface NavigatorLike {
  languages?: readonly string[];
  language?: string;
  cookieEnabled?: boolean;
  doNotTrack?: string | null;
  globalPrivacyControl?: boolean;
  hardwareConcurrency?: number;
  deviceMemory?: number;
  maxTouchPoints?: number;
  connection?: ConnectionHints;
}

export interface Environment {
  navigator: NavigatorLike;
  screen: { width: number; height: number; colorDepth: number };
  devicePixelRatio: number;
  timeZone: string | undefined;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function connectionOf(connection: ConnectionHints | undefined): ConnectionHints | null {
  if (!connection) return null;
  const out: ConnectionHints = {};
  if (typeof connection.effectiveType === 'string') out.effectiveType = connection.effectiveType;
  if (finite(connection.downlink)) out.downlink = connection.downlink;
  if (finite(connection.rtt)) out.rtt = connection.rtt;
  if (typeof connection.saveData === 'boolean') out.saveData = connection.saveData;
  return out;
}

/** Reads the facts defensively: a hint the browser lacks is null, never a guess. */
export function readFacts({ navigator: nav, screen, devicePixelRatio, timeZone }: Environment): BrowserFacts {
  const languages = nav.languages?.length ? [...nav.languages] : nav.language ? [nav.language] : [];
  return {
    languages,
    timeZone: timeZone || null,
    screen: { width: screen.width, height: screen.height, colorDepth: screen.colorDepth, pixelRatio: devicePixelRatio },
    connection: connectionOf(nav.connection),
    cookies: nav.cookieEnabled === true,
    doNotTrack: nav.doNotTrack === '1' ? true : nav.doNotTrack === '0' ? false : null,
    globalPrivacyControl: typeof nav.globalPrivacyControl === 'boolean' ? nav.globalPrivacyControl : null,
    cores: finite(nav.hardwareConcurrency) && nav.hardwareConcurrency > 0 ? nav.hardwareConcurrency : null,
    memory: finite(nav.deviceMemory) && nav.deviceMemory > 0 ? nav.deviceMemory : null,
    touchPoints: finite(nav.maxTouchPoints) ? nav.maxTouchPoints : 0,
  };
}

const cut = (text: string, length: number) => text.slice(0, length);

function softwareEntry(value: Software): Software | undefined {
  const out: Software = {};
  if (value.name) out.name = cut(value.name, 64);
  if (value.version) out.version = cut(value.version, 32);
  return out.name || out.version ? out : undefined;
}

const integerIn = (value: number, max: number) => (value >= 0 && value <= max ? Math.round(value) : undefined);
const numberIn = (value: number | undefined, max: number) =>
  finite(value) && value >= 0 && value <= max ? value : undefined;

/**
 * The report's `browserinfo` section (frontend contract 19.3): names and
 * versions, time zone, up to 16 languages, display and connection hints, cut to
 * the whitelist's lengths and ranges. Flags and hardware hints stay on the page.
 */
export function browserSection(summary: UaSummary, facts: BrowserFacts): SectionBody<'browserinfo'> {
  const section: SectionBody<'browserinfo'> = {};
  for (const key of ['browser', 'os', 'engine'] as const) {
    const entry = softwareEntry(summary[key]);
    if (entry) section[key] = entry;
  }
  if (facts.timeZone) section.timezone = cut(facts.timeZone, 64);
  const languages = facts.languages.filter((tag) => tag.length <= 16).slice(0, 16);
  if (languages.length) section.languages = languages;
  const display = {
    width: integerIn(facts.screen.width, 100000),
    height: integerIn(facts.screen.height, 100000),
    pixelRatio: numberIn(facts.screen.pixelRatio, 100),
  };
  section.display = Object.fromEntries(Object.entries(display).filter(([, v]) => v !== undefined));
  if (facts.connection) {
    const { effectiveType, downlink, rtt } = facts.connection;
    const connection = {
      effectiveType: effectiveType ? cut(effectiveType, 16) : undefined,
      downlink: numberIn(downlink, 100000),
      rtt: finite(rtt) ? integerIn(rtt, 600000) : undefined,
    };
    section.connection = Object.fromEntries(Object.entries(connection).filter(([, v]) => v !== undefined));
  } else {
    section.connection = null;
  }
  return section;
}
