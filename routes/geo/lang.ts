import { memoized } from '../../lib/memory-cache.js';

/** The languages the city database holds, in their canonical spelling. */
const DB_LANGUAGES = ['de', 'en', 'es', 'fr', 'ja', 'pt-BR', 'ru', 'zh-CN'] as const;
export type DbLanguage = (typeof DB_LANGUAGES)[number];

const BY_LOWER = new Map<string, DbLanguage>(DB_LANGUAGES.map((l) => [l.toLowerCase(), l]));
const BASE = (tag: string) => tag.split('-')[0]!;
const TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/;

/**
 * Maps any `lang` value onto a database language: the exact tag
 * (case-insensitive), then its base language, then a sibling variant of the
 * same language (zh-TW → zh-CN, pt-PT → pt-BR), then en. Anything that is not
 * a language tag is en; this never fails.
 */
export function normaliseLang(value: unknown): DbLanguage {
  return typeof value === 'string' && value.length <= 35 ? rememberedLang(value) : 'en';
}

// Pages ask in a handful of languages; the verdicts are remembered.
const LANG_VERDICTS_MAX = 256;
const rememberedLang = memoized(langOf, LANG_VERDICTS_MAX);

function langOf(value: string): DbLanguage {
  const tag = value.trim().replace(/_/g, '-').toLowerCase();
  if (!TAG.test(tag)) return 'en';
  const exact = BY_LOWER.get(tag);
  if (exact) return exact;
  const base = BY_LOWER.get(BASE(tag));
  if (base) return base;
  return DB_LANGUAGES.find((l) => BASE(l.toLowerCase()) === BASE(tag)) ?? 'en';
}

/** `lang` as forwarded to a source that takes it as given: the first value when repeated, `en` when absent. */
export function forwardedLang(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : 'en';
}
