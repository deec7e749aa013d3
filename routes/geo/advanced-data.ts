import type { AdvancedData, GatedState } from '../../contract/geo.js';
import { obj } from './normalise.js';
import { finiteNumber } from '../../lib/json-values.js';

const GATED_STATES: readonly unknown[] = ['sign_in_required', 'quota_exceeded'] satisfies GatedState[];
const KEYS = ['score', 'tags', 'proxyProtocol', 'proxyProvider', 'operatorType'] as const;
const OPERATOR_TYPES = ['Business', 'Residential', 'Wireless', 'Hosting'];

const isGated = (value: unknown): value is GatedState => GATED_STATES.includes(value);
/** A string as the companion API sent it ("" means none); "unknown" when it sent no string. */
const given = (value: unknown): string => (typeof value === 'string' ? value.trim() : 'unknown');

const gated = (state: GatedState): AdvancedData => ({
  score: state,
  tags: state,
  proxyProtocol: state,
  proxyProvider: state,
  operatorType: state,
});

/**
 * The companion API's advancedData in the contract's shape. It signals a
 * signed-out or over-quota caller with the state's code in the fields
 * themselves (MyIP passes its answer through unchanged); one field holding a
 * code, or no advancedData at all, puts all five fields in that state.
 */
export function advancedData(raw: unknown): AdvancedData {
  if (raw === undefined || raw === null) return gated('sign_in_required');
  const data = obj(raw);
  const state = KEYS.map((key) => data[key]).find(isGated);
  if (state) return gated(state);
  const score = finiteNumber(data.score);
  const tags = obj(data.tags);
  const operatorType = given(data.operatorType);
  return {
    score: score !== null && score >= 0 && score <= 100 ? score : 'unknown',
    tags: { isNative: tags.isNative === true, isProxyOrVPN: tags.isProxyOrVPN === true },
    proxyProtocol: given(data.proxyProtocol),
    proxyProvider: given(data.proxyProvider),
    // The frontend tells the four types apart by their exact spelling.
    operatorType: OPERATOR_TYPES.find((t) => t.toLowerCase() === operatorType.toLowerCase()) ?? operatorType,
  };
}
