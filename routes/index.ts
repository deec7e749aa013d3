import type { FastifyPluginAsync } from 'fastify';
import configs from './configs/index.js';
import repoStars from './repo-stars/index.js';
import asn from './asn/index.js';
import whois from './whois/index.js';
import dnsresolver from './dnsresolver/index.js';
import serviceStatus from './status/index.js';
import reports from './reports/index.js';
import telemetry from './telemetry/index.js';
import user from './user/index.js';
import geo from './geo/index.js';
import censorship from './censorship/index.js';
import probeCountries from './probe-countries/index.js';
import macchecker from './macchecker/index.js';
import map from './map/index.js';
import privateTools from './private-tools/index.js';
import clientIp from './client-ip/index.js';

/** Every capability, each an encapsulated plugin under /api. */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(configs);
  await app.register(repoStars);
  await app.register(asn);
  await app.register(whois);
  await app.register(dnsresolver);
  await app.register(serviceStatus);
  await app.register(reports);
  await app.register(telemetry);
  await app.register(user);
  await app.register(geo);
  await app.register(censorship);
  await app.register(probeCountries);
  await app.register(macchecker);
  await app.register(map);
  await app.register(privateTools);
  await app.register(clientIp);
};

export default routes;
