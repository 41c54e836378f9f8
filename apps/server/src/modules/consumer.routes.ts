import type { FastifyPluginAsync } from 'fastify';
import type { BatchService } from './batch/batch.service.ts';
import { batchRoutes } from './batch/batch.routes.ts';
import type { CollectionsService } from './collections/collections.service.ts';
import { collectionsRoutes } from './collections/collections.routes.ts';
import type { FavoritesService } from './favorites/favorites.service.ts';
import { favoritesRoutes } from './favorites/favorites.routes.ts';
import type { IconsService } from './icons/icons.service.ts';
import { linkIconRoutes } from './icons/link-icon.routes.ts';
import type { LinkHealthService } from './link-health/link-health.service.ts';
import { attentionRoutes } from './link-health/link-health.routes.ts';
import type { LinksService } from './links/links.service.ts';
import { linksRoutes } from './links/links.routes.ts';
import type { LiveHub } from './live/live.hub.ts';
import { liveRoutes } from './live/live.routes.ts';
import type { MenuService } from './menu/menu.service.ts';
import { menuRoutes } from './menu/menu.routes.ts';
import type { PeersService } from './peers/peers.service.ts';
import { peersRoutes } from './peers/peers.routes.ts';
import type { SharesService } from './shares/shares.service.ts';
import { sharesRoutes } from './shares/shares.routes.ts';
import { bookmarksRoutes } from './bookmarks/bookmarks.routes.ts';
import type { BookmarksService } from './bookmarks/bookmarks.service.ts';
import type { SuggestionsService } from './suggestions/suggestions.service.ts';
import { ownSuggestionsRoutes } from './suggestions/suggestions.routes.ts';
import type { UndoService } from './undo/undo.service.ts';
import { undoRoutes } from './undo/undo.routes.ts';

/** The services the portal's routes call. */
export interface ConsumerServices {
  batch: BatchService;
  bookmarks: BookmarksService;
  collections: CollectionsService;
  favorites: FavoritesService;
  icons: IconsService;
  linkHealth: LinkHealthService;
  links: LinksService;
  live: LiveHub;
  menu: MenuService;
  peers: PeersService;
  shares: SharesService;
  suggestions: SuggestionsService;
  undo: UndoService;
}

/** Everything under /api/consumer: a signed-in person's own portal. */
export const consumerRoutes: FastifyPluginAsync<ConsumerServices> = async (app, services) => {
  // Authentication comes before validation: without a live token, every call is 401.
  app.addHook('onRequest', app.authenticate);
  await app.register(menuRoutes, { menu: services.menu });
  await app.register(collectionsRoutes, { collections: services.collections });
  await app.register(linksRoutes, { links: services.links });
  // Several items at once (decision 0075).
  await app.register(batchRoutes, { batch: services.batch });
  // A link's own icon (decision 0068): the one route whose body is an image.
  await app.register(linkIconRoutes, { icons: services.icons });
  // Links that need the person: broken or moved (decision 0069).
  await app.register(attentionRoutes, { linkHealth: services.linkHealth });
  await app.register(favoritesRoutes, { favorites: services.favorites });
  await app.register(sharesRoutes, { shares: services.shares });
  await app.register(bookmarksRoutes, { bookmarks: services.bookmarks });
  await app.register(peersRoutes, { peers: services.peers });
  await app.register(ownSuggestionsRoutes, { suggestions: services.suggestions });
  await app.register(undoRoutes, { undo: services.undo });
  await app.register(liveRoutes, { live: services.live });
};
