import type { FastifyPluginAsync } from 'fastify';
import { collectionsRoutes } from './collections/collections.routes.ts';
import { favoritesRoutes } from './favorites/favorites.routes.ts';
import { checkUploadedIcon } from './icons/icons.service.ts';
import { linkIconRoutes } from './icons/link-icon.routes.ts';
import { attentionRoutes } from './link-health/link-health.routes.ts';
import { linksRoutes } from './links/links.routes.ts';
import { liveRoutes } from './live/live.routes.ts';
import { menuRoutes } from './menu/menu.routes.ts';
import { peersRoutes } from './peers/peers.routes.ts';
import { sharesRoutes } from './shares/shares.routes.ts';
import { ownSuggestionsRoutes } from './suggestions/suggestions.routes.ts';
import { undoRoutes } from './undo/undo.routes.ts';

/** Everything under /api/consumer: a signed-in person's own portal. */
export const consumerRoutes: FastifyPluginAsync = async (app) => {
  // Authentication comes before validation: without a live token, every call is 401.
  app.addHook('onRequest', app.authenticate);
  await app.register(menuRoutes);
  await app.register(collectionsRoutes);
  await app.register(linksRoutes);
  // A link's own icon (decision 0068): the one route whose body is an image.
  await app.register(linkIconRoutes, { process: checkUploadedIcon });
  // Links that need the person: broken or moved (decision 0069).
  await app.register(attentionRoutes);
  await app.register(favoritesRoutes);
  await app.register(sharesRoutes);
  await app.register(peersRoutes);
  await app.register(ownSuggestionsRoutes);
  await app.register(undoRoutes);
  await app.register(liveRoutes);
};
