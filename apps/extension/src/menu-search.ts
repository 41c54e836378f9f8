import type { FavoriteItem, LinkItem, Menu, MenuItem } from '@signpost/contract';
import { haystackOf, type LinkSearchEntry } from '@signpost/link-search';
import { texts } from './texts';

/** A link or favorite of the menu, with where it lives, as the link search reads it. */
export interface IndexedLink extends LinkSearchEntry {
  item: LinkItem | FavoriteItem;
  /** "My Space › Reading list", "Engineering › Code & delivery". */
  where: string;
}

const SEPARATOR = ' › ';

/**
 * Every link and favorite a person sees, in the menu's order, each found by the fields the
 * portal's search reads (its name, appName, the collection that holds it, its description):
 * the link search then ranks them as the portal does (decision 0053), and shows a favorite
 * and the team or organization link it points at once, where the original lives.
 */
export function indexLinks(menu: Menu): IndexedLink[] {
  const links: IndexedLink[] = [];
  const visit = (items: readonly MenuItem[], path: string[]) => {
    const parentName = path[path.length - 1] ?? '';
    for (const item of items) {
      if (item.type === 'link' || item.type === 'link-favorite') {
        links.push({ item, where: path.join(SEPARATOR), ...haystackOf(item, parentName) });
      } else {
        visit(item.items, [...path, item.name]);
      }
    }
  };
  for (const space of menu.spaces) {
    for (const top of space.collections) {
      const path =
        space.type === 'personal' && top.type === 'collection' ? [texts.mySpace] : [space.name];
      // A space's top-level collections are named in the path, except My Space itself.
      visit(
        top.items,
        top.type === 'collection' && space.type !== 'personal' ? [...path, top.name] : path,
      );
    }
  }
  return links;
}

/** Where the menu already holds this address: "My Space › Reading list", at most two. */
export function placesOf(index: readonly IndexedLink[], url: string): string[] {
  let wanted: string;
  try {
    wanted = new URL(url.trim()).href;
  } catch {
    return [];
  }
  // A favorite stands for its original: the place that holds the link is the original's.
  const originals = new Set(index.flatMap(({ item }) => (item.type === 'link' ? [item.id] : [])));
  const places = index
    .filter(({ item }) => item.url === wanted)
    .filter(({ item }) => item.type === 'link' || !originals.has(item.linkId))
    .map((link) => link.where);
  return [...new Set(places)].slice(0, 2);
}
