import Bowser from 'bowser';

/** A name and a version, either of which a browser may not tell. */
export interface Software {
  name?: string;
  version?: string;
}

/** What the browser says it is: the User-Agent read by bowser, refined by User-Agent Client Hints. */
export interface UaSummary {
  browser: Software;
  engine: Software;
  os: Software;
  /** desktop, mobile, tablet, tv, bot: bowser's platform type, when it could tell. */
  device?: string;
}

/** The high-entropy Client Hints this page asks for (`navigator.userAgentData.getHighEntropyValues`). */
export interface ClientHints {
  brands?: { brand: string; version: string }[];
  fullVersionList?: { brand: string; version: string }[];
  mobile?: boolean;
  platform?: string;
  platformVersion?: string;
  architecture?: string;
  model?: string;
}

export const HIGH_ENTROPY_HINTS = ['fullVersionList', 'platformVersion', 'architecture', 'model'] as const;

// The Client Hints' brand names, as bowser names the same browsers; GREASE brands ("Not?A_Brand") match none.
const HINT_BRANDS: Record<string, string> = {
  'Google Chrome': 'Chrome',
  'Microsoft Edge': 'Microsoft Edge',
  Opera: 'Opera',
  Brave: 'Brave',
  Vivaldi: 'Vivaldi',
  'Samsung Internet': 'Samsung Internet for Android',
  YaBrowser: 'Yandex Browser',
};

const present = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

function software(name: string | undefined, version: string | undefined): Software {
  const out: Software = {};
  const n = present(name);
  const v = present(version);
  if (n) out.name = n;
  if (v) out.version = v;
  return out;
}

/**
 * Chromium freezes the User-Agent's OS version (Windows NT 10.0 on Windows
 * 11, macOS 10.15.7) and its minor browser version; the Client Hints carry the
 * real ones. Windows 11 reports a platform version of 13 or more.
 */
function osFromHints(hints: ClientHints, fallback: Software): Software {
  const version = present(hints.platformVersion);
  const platform = present(hints.platform);
  if (!platform || !version) return fallback;
  if (platform === 'Windows') {
    const major = Number(version.split('.')[0]);
    if (!Number.isFinite(major) || major < 1) return fallback;
    return { name: 'Windows', version: major >= 13 ? '11' : '10' };
  }
  if (platform === 'macOS') return { name: 'macOS', version };
  if (platform === 'Android' || platform === 'Chrome OS' || platform === 'Linux') {
    return software(fallback.name ?? platform, platform === 'Linux' ? fallback.version : version);
  }
  return fallback;
}

/**
 * The browser as its Client Hints name it, with the full version the
 * User-Agent no longer carries. A Chromium build without a brand of its own
 * (Debian's, a headless one) says "Chrome" in its User-Agent but only
 * "Chromium" in its hints, and is named Chromium.
 */
function browserFromHints(list: ClientHints['fullVersionList'], fallback: Software): Software {
  if (!list?.length) return fallback;
  const named = list.find((entry) => HINT_BRANDS[entry.brand]);
  if (named) return software(HINT_BRANDS[named.brand], named.version);
  const chromium = list.find((entry) => entry.brand === 'Chromium');
  if (chromium && (!fallback.name || fallback.name === 'Chrome' || fallback.name === 'Chromium')) {
    return software('Chromium', chromium.version);
  }
  return fallback;
}

/**
 * The engine's version where bowser leaves it out or gives another number:
 * Blink's is Chromium's, and Gecko's is the `rv:` token (the `Gecko/20100101`
 * token is a frozen date, not a version).
 */
function engineOf(name: string | undefined, version: string | undefined, userAgent: string): Software {
  if (name === 'Blink') return software(name, /Chrom(?:e|ium)\/([\d.]+)/.exec(userAgent)?.[1] ?? version);
  if (name === 'Gecko') return software(name, /rv:([\d.]+)/.exec(userAgent)?.[1]);
  return software(name, version);
}

const EMPTY: UaSummary = { browser: {}, engine: {}, os: {} };

/** What the User-Agent and, where offered, the Client Hints say about this browser. */
export function summarize(userAgent: string, hints: ClientHints | null = null): UaSummary {
  if (!userAgent.trim()) return EMPTY;
  const parsed = Bowser.parse(userAgent);
  let browser = software(parsed.browser.name, parsed.browser.version);
  let engine = engineOf(parsed.engine.name, parsed.engine.version, userAgent);
  // Windows's version is its NT number in the User-Agent ("NT 10.0"); bowser's versionName is the name people know.
  let os = software(
    parsed.os.name,
    parsed.os.name === 'Windows' ? (parsed.os.versionName ?? parsed.os.version) : parsed.os.version,
  );
  if (hints) {
    browser = browserFromHints(hints.fullVersionList, browser);
    const blink = hints.fullVersionList?.find((entry) => entry.brand === 'Chromium')?.version;
    if (engine.name === 'Blink' && blink) engine = software('Blink', blink);
    os = osFromHints(hints, os);
  }
  const device = present(parsed.platform.type);
  return { browser, engine, os, ...(device ? { device } : {}) };
}
