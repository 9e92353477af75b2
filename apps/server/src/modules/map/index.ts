import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { basemapRoutes } from './basemapRoutes.js';
import { geocodeRoutes } from './geocodeRoutes.js';

/**
 * `/api/Map/*` and the public `/basemap/*`: the basemap of each DefaultMap (offline vector tiles,
 * glyphs, a PMTiles archive, the descriptor the console builds its style from) and reverse geocoding.
 */
export const mapModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(basemapRoutes);
  await app.register(geocodeRoutes);
};
