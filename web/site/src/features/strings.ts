import { i18n, onLocaleApplied, type Locale } from '../i18n';

type Messages = Record<string, unknown>;

// Each tool's texts, `tools/<slug>/strings/<locale>.json`, as chunks of their own.
const files = import.meta.glob<Messages>('./*/strings/*.json', { import: 'default' });
const loaded = new Set<string>();
const used = new Set<string>();

function loader(slug: string, locale: Locale): (() => Promise<Messages>) | undefined {
  return files[`./${slug}/strings/${locale}.json`];
}

async function loadFor(slug: string, locale: Locale): Promise<void> {
  const key = `${slug}:${locale}`;
  const load = loader(slug, locale);
  if (loaded.has(key) || !load) return;
  const messages = await load();
  i18n.global.mergeLocaleMessage(locale, { [slug]: messages });
  loaded.add(key);
}

/**
 * Fetches a tool's texts in the page's language and in English (the fallback)
 * before its page or report section shows; they are then `t('<slug>.<key>')`.
 */
export async function loadToolStrings(slug: string): Promise<void> {
  used.add(slug);
  const locale = i18n.global.locale.value as Locale;
  await Promise.all([loadFor(slug, 'en'), locale === 'en' ? null : loadFor(slug, locale)]);
}

/** A page or report view that also shows another tool's texts (`slug`), loaded with them. */
export function withToolStrings<T>(slug: string, load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadToolStrings(slug)]).then(([loaded]) => loaded);
}

// A change of language fetches the new language's texts of every tool already shown.
onLocaleApplied((locale) => Promise.all([...used].map((slug) => loadFor(slug, locale))).then(() => undefined));
