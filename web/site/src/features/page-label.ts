import { FEATURES } from './registry';

/** The navigation's label of the page at `path` (a result's source in the share form), or null for an unlisted page. */
export function pageLabelKey(path: string): string | null {
  const feature = FEATURES.find((f) => f.path === path);
  return feature?.nav ? (feature.nav.label ?? `nav.${feature.name}`) : null;
}
