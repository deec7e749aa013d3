import type { GeoRecord } from '../../contract/geo.js';

/**
 * The whole record the geo routes answer for 8.8.8.8 from the fixtures
 * (Google in Mountain View), with what one source says differently: its
 * coordinates, its country name, its extra fields.
 */
export function mountainViewRecord(
  differences: Partial<GeoRecord> & Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ip: '8.8.8.8',
    city: 'Mountain View',
    region: 'California',
    country: 'US',
    country_name: 'United States',
    country_code: 'US',
    latitude: 37.4056,
    longitude: -122.0775,
    timezone: 'America/Los_Angeles',
    asn: 'AS15169',
    org: 'Google LLC',
    ...differences,
  };
}
