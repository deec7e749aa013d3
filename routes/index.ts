import type { FastifyPluginAsync } from 'fastify';
import configs from './configs/index.js';
import repoStars from './repo-stars/index.js';

/** Every capability, each an encapsulated plugin under /api. */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(configs);
  await app.register(repoStars);
};

export default routes;
