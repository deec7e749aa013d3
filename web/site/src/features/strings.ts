import { i18n, onLocaleApplied, type Locale } from '../i18n';

type Messages = Record<string, unknown>;

// Each feature's texts, `features/<folder>/strings/<locale>.json`, as chunks of their own.
const files = import.meta.glob<Messages>('./*/strings/*.json', { import: 'default' });
const loaded = new Set<string>();
// Folders whose texts a page shown so far needed, with the namespace they go under.
const used = new Map<string, string>();

async function loadFor(folder: string, namespace: string, locale: Locale): Promise<void> {
  const key = `${folder}:${locale}`;
  const load = files[`./${folder}/strings/${locale}.json`];
  if (loaded.has(key) || !load) return;
  const messages = await load();
  i18n.global.mergeLocaleMessage(locale, { [namespace]: messages });
  loaded.add(key);
}

/**
 * Fetches a folder's texts in the page's language and in English (the
 * fallback) before its page or report view shows; they are then
 * `t('<namespace>.<key>')`, the namespace being the feature's name.
 */
export async function loadStrings(folder: string, namespace = folder): Promise<void> {
  used.set(folder, namespace);
  const locale = i18n.global.locale.value as Locale;
  await Promise.all([loadFor(folder, namespace, 'en'), locale === 'en' ? null : loadFor(folder, namespace, locale)]);
}

/** A page or view that shows the texts of its feature (`namespace`, from `folder`) and of `uses`, loaded with them. */
export function withStrings<T>(
  load: () => Promise<T>,
  folder: string,
  namespace: string,
  uses: readonly string[] = [],
): () => Promise<T> {
  return () =>
    Promise.all([load(), loadStrings(folder, namespace), ...uses.map((other) => loadStrings(other))]).then(
      ([done]) => done,
    );
}

// A change of language fetches the new language's texts of every folder already shown.
onLocaleApplied((locale) =>
  Promise.all([...used].map(([folder, namespace]) => loadFor(folder, namespace, locale))).then(() => undefined),
);
