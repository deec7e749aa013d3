import { useI18n } from 'vue-i18n';

/** A figure in the page's language with its unit, or "not measured" for none. */
export function useFigureText() {
  const { t, locale } = useI18n();
  const number = (value: number) => value.toLocaleString(locale.value, { maximumFractionDigits: 1 });
  const figure = (value: number | null | undefined, unit: 'mbps' | 'ms') =>
    typeof value === 'number' ? t(`speed.${unit}`, { n: number(value) }) : t('speed.notMeasured');
  return { number, figure };
}
