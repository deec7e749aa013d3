import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { Guard } from '../../schemas/guarded.js';
import list from './providers.json' with { type: 'json' };

/**
 * One status page. Every provider publishes Atlassian Statuspage's v2 JSON
 * (`{page}/api/v2/summary.json` and `incidents.json`); a few are hosted by
 * vendors serving the same endpoints. `page` is also the link the site shows.
 */
export const Provider = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9-]{1,32}$' }),
    name: Type.String({ minLength: 1, maxLength: 64 }),
    page: Type.String({ pattern: '^https://[a-z0-9.-]+$' }),
    /** Top-level component ids left out of the detail (a page's note rows that are no service). */
    hiddenComponents: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type Provider = Static<typeof Provider>;

const ProviderList = Type.Array(Provider, { minItems: 1 });

function load(): Provider[] {
  const [first] = Value.Errors(ProviderList, list);
  if (first) {
    throw new Error(`routes/service-status/providers.json is invalid at ${first.instancePath}: ${first.message}`);
  }
  const providers = list as Provider[];
  if (new Set(providers.map((p) => p.id)).size !== providers.length) {
    throw new Error('routes/service-status/providers.json repeats an id');
  }
  return providers;
}

/** The frontend's 16 service-status providers, in its display order; the provider-id guard reads this same list. */
export const PROVIDERS: readonly Provider[] = load();

const IDS = new Set(PROVIDERS.map((p) => p.id));

export const providerIdGuard: Guard = {
  missing: 'No provider id provided',
  invalid: 'Invalid provider id',
  check: (value) => (IDS.has(value) ? value : { error: 'Invalid provider id' }),
};
