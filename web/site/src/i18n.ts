import { createI18n } from 'vue-i18n';
// Precompiled at build time (@intlify/unplugin-vue-i18n), so the page ships no
// message compiler. English, the fallback, is in the main bundle; other
// languages are fetched when chosen.
import en from './locales/en.json';
import { addCountryNames } from './lib/country';
import { browserStore, readKept, writeKept } from './lib/kept';
import { frenchPlural, russianPlural } from './lib/plural';
import { LOCALE_KEY } from './lib/storage-keys';

export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
  { code: 'fr', name: 'Français' },
  { code: 'ru', name: 'Русский' },
] as const;
export type Locale = (typeof LOCALES)[number]['code'];

// A language's texts and its country names, fetched together when it is chosen.
const loaders: Record<
  Exclude<Locale, 'en'>,
  () => Promise<[{ default: typeof en }, { default: Readonly<Record<string, string>> }]>
> = {
  'zh-CN': () => Promise.all([import('./locales/zh-CN.json'), import('virtual:country-names/zh-CN')]),
  fr: () => Promise.all([import('./locales/fr.json'), import('virtual:country-names/fr')]),
  ru: () => Promise.all([import('./locales/ru.json'), import('virtual:country-names/ru')]),
};

function isLocale(value: unknown): value is Locale {
  return LOCALES.some((l) => l.code === value);
}

/** The visitor's remembered choice, else the first browser language the site speaks, else English. */
function initialLocale(): Locale {
  const remembered = readKept(browserStore(), LOCALE_KEY);
  if (isLocale(remembered)) return remembered;
  for (const tag of navigator.languages ?? [navigator.language]) {
    if (/^zh\b/i.test(tag)) return 'zh-CN';
    if (/^en\b/i.test(tag)) return 'en';
    if (/^fr\b/i.test(tag)) return 'fr';
    if (/^ru\b/i.test(tag)) return 'ru';
  }
  return 'en';
}

// Typed by the English texts; the other languages arrive later, so the map is partial.
const messages: Partial<Record<Locale, typeof en>> = { en };
export const i18n = createI18n({
  legacy: false,
  locale: 'en' as Locale,
  fallbackLocale: 'en',
  messages: messages as Record<Locale, typeof en>,
  // English and Chinese use vue-i18n's default choice; these two count differently.
  pluralRules: { fr: frenchPlural, ru: russianPlural },
});

type LocaleHook = (locale: Locale) => Promise<void>;
const hooks: LocaleHook[] = [];

/** Work to finish before a newly chosen language shows, such as fetching a tool's texts in it. */
export function onLocaleApplied(hook: LocaleHook): void {
  hooks.push(hook);
}

async function apply(locale: Locale): Promise<void> {
  if (locale !== 'en' && !i18n.global.availableLocales.includes(locale)) {
    const [texts, countries] = await loaders[locale]();
    addCountryNames(locale, countries.default);
    // Merged, not set: texts of tools fetched earlier in this language stay.
    i18n.global.mergeLocaleMessage(locale, texts.default);
  }
  await Promise.all(hooks.map((hook) => hook(locale)));
  i18n.global.locale.value = locale;
  document.documentElement.lang = locale;
}

/** Sets the language the page opens in; resolves once its texts are here. */
export function startLocale(): Promise<void> {
  return apply(initialLocale()).catch(() => apply('en'));
}

/** Switches the page's language and remembers the choice in this browser. */
export async function setLocale(locale: Locale): Promise<void> {
  await apply(locale);
  writeKept(browserStore(), LOCALE_KEY, locale);
}

// The languages the map image is drawn in (frontend contract, /api/map); English for any other.
const MAP_LANGUAGES: Partial<Record<Locale, string>> = { 'zh-CN': 'zh', fr: 'fr', ru: 'ru' };

/** The two-letter language the map image takes. */
export function shortLocale(): string {
  return MAP_LANGUAGES[i18n.global.locale.value as Locale] ?? 'en';
}
