import { createI18n } from 'vue-i18n';
import en from './locales/en';
import zhCN from './locales/zh-CN';

export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
] as const;
export type Locale = (typeof LOCALES)[number]['code'];

const STORAGE_KEY = 'netdiag.locale';

function isLocale(value: unknown): value is Locale {
  return LOCALES.some((l) => l.code === value);
}

function stored(): Locale | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

/** The visitor's remembered choice, else the first browser language the site speaks, else English. */
function initialLocale(): Locale {
  const remembered = stored();
  if (remembered) return remembered;
  for (const tag of navigator.languages ?? [navigator.language]) {
    if (/^zh\b/i.test(tag)) return 'zh-CN';
    if (/^en\b/i.test(tag)) return 'en';
  }
  return 'en';
}

export const i18n = createI18n({
  legacy: false,
  locale: initialLocale(),
  fallbackLocale: 'en',
  messages: { en, 'zh-CN': zhCN },
});

document.documentElement.lang = i18n.global.locale.value;

/** Switches the page's language and remembers the choice in this browser. */
export function setLocale(locale: Locale): void {
  i18n.global.locale.value = locale;
  document.documentElement.lang = locale;
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Storage refused (private mode, a full quota): the choice holds for this visit only.
  }
}

/** The two-letter language the map image and geo sources take. */
export function shortLocale(): string {
  return i18n.global.locale.value === 'zh-CN' ? 'zh' : 'en';
}
