import type { ServerResponse } from 'node:http';
import { EXAMPLE_PRIVATE_API_HOST } from '../../../routes/example-request.js';
import { fixture, type FakeUpstream } from '../fake-upstream.js';

export const FAKE_PRIVATE_ENV = {
  PRIVATE_API_KEY: 'fake-private-key',
  PRIVATE_API_ENDPOINT: `https://${EXAMPLE_PRIVATE_API_HOST}`,
  INVISIBILITY_TEST_KEY: 'fake-detection-key',
};
export const FAKE_MAP_ENV = { MAP_API_KEY: 'fake-map-key-1,fake-map-key-2' };

const json = (res: ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** OONI's aggregation, one fixture per domain asked about; the other network tools' answers are fixed (routes/<cap>/examples.ts). */
export function registerNetworkToolsFakeRoutes(fake: FakeUpstream): void {
  fake.on('GET', 'api.ooni.io', '/api/v1/aggregation', (req, res) =>
    json(
      res,
      fixture(
        'api.ooni.io',
        req.query.get('domain')?.startsWith('www.')
          ? 'aggregation-www.example.com.json'
          : 'aggregation-example.com.json',
      ),
    ),
  );
}
