import type { ExampleRequest } from '../example-request.js';

/** The report body of the frontend contract's example, as the page posts it (one IP card). */
export const EXAMPLE_REPORT = {
  v: 1,
  generatedAt: '2026-11-24T12:30:00.000Z',
  origin: 'localhost',
  locale: 'en',
  sections: {
    ipinfo: {
      testedAt: '2026-11-24T12:29:41.000Z',
      cards: [
        {
          source: 'IPCheck.ing IPv4',
          ip: '8.8.8.8',
          countryCode: '',
          region: 'California',
          city: 'Mountain View',
          timezone: 'America/Los_Angeles',
          asn: 'AS15169',
          isp: 'Google LLC',
        },
      ],
    },
  },
};

/** A shared report the demo's key-value store holds from the start, so a link to it opens. */
export const EXAMPLE_REPORT_ID = 'demoReport0123456789AB';

export const examples: ExampleRequest[] = [
  { method: 'POST', url: '/api/report', payload: { report: EXAMPLE_REPORT, ttlDays: 1 } },
  { url: `/api/report/${EXAMPLE_REPORT_ID}` },
  { method: 'DELETE', url: '/api/report', status: 405 },
];
