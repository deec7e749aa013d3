import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { defineGuard } from '../../schemas/guards.js';
import list from './providers.json' with { type: 'json' };

export const Provider = Type.Object(
  {
    slug: Type.String({ pattern: '^[a-z0-9-]{1,32}$' }),
    name: Type.String({ minLength: 1, maxLength: 64 }),
    url: Type.String({ pattern: '^https://[a-z0-9.-]+$' }),
    // Only Atlassian Statuspage's summary.json / incidents.json is read today.
    format: Type.Literal('statuspage'),
  },
  { additionalProperties: false },
);
export type Provider = Static<typeof Provider>;

const ProviderList = Type.Array(Provider, { minItems: 1 });

function load(): Provider[] {
  const [first] = Value.Errors(ProviderList, list);
  if (first) throw new Error(`routes/status/providers.json is invalid at ${first.instancePath}: ${first.message}`);
  const providers = list as Provider[];
  if (new Set(providers.map((p) => p.slug)).size !== providers.length) throw new Error('routes/status/providers.json repeats a slug');
  return providers;
}

/** The service-status providers, in display order; the provider-id guard reads this same list. */
export const PROVIDERS: readonly Provider[] = load();

const SLUGS = new Set(PROVIDERS.map((p) => p.slug));

defineGuard('providerId', {
  missing: 'No provider id provided',
  invalid: 'Invalid provider id',
  check: (value) => (SLUGS.has(value) ? value : { error: 'Invalid provider id' }),
});
