import type { Menu, MenuItem } from '@signpost/contract';
import { texts } from './texts';

/** A link of the menu, with where it lives. */
export interface IndexedLink {
  id: string;
  name: string;
  url: string;
  description: string;
  /** "My Space › Reading list", "Engineering › Code & delivery". */
  where: string;
}

const SEPARATOR = ' › ';

/**
 * Every link a person sees, once: a favorite in My Space and the team or organization link
 * it points at are one link, shown where the original lives (as the portal's search does,
 * decision 0053). A favorite whose original is not in the menu is kept as it is.
 */
export function indexLinks(menu: Menu): IndexedLink[] {
  const links: IndexedLink[] = [];
  const favorites: { linkId: string; link: IndexedLink }[] = [];
  const visit = (items: readonly MenuItem[], path: string[]) => {
    for (const item of items) {
      if (item.type === 'link') {
        const { id, name, url, description } = item;
        links.push({ id, name, url, description, where: path.join(SEPARATOR) });
      } else if (item.type === 'link-favorite') {
        const { id, name, url, description, linkId } = item;
        favorites.push({
          linkId,
          link: { id, name, url, description, where: path.join(SEPARATOR) },
        });
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
  const originals = new Set(links.map((link) => link.id));
  for (const { linkId, link } of favorites) if (!originals.has(linkId)) links.push(link);
  return links;
}

/** How well a link matches: lower is better; null when it does not. */
function rank(link: IndexedLink, words: string[]): number | null {
  const name = link.name.toLocaleLowerCase();
  const rest = `${link.url} ${link.description}`.toLocaleLowerCase();
  if (!words.every((word) => name.includes(word) || rest.includes(word))) return null;
  const query = words.join(' ');
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  if (` ${name}`.includes(` ${query}`)) return 2;
  if (name.includes(query)) return 3;
  if (words.every((word) => name.includes(word))) return 4;
  return 5;
}

/**
 * The links whose name, address or description hold every word of the query, the names
 * that match best first (the whole name, its start, a word's start, anywhere in it), then
 * by name.
 */
export function searchLinks(index: readonly IndexedLink[], query: string): IndexedLink[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return index
    .map((link) => ({ link, rank: rank(link, words) }))
    .filter((found): found is { link: IndexedLink; rank: number } => found.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.link.name.localeCompare(b.link.name))
    .map((found) => found.link);
}

/** Where the menu already holds this address: "My Space › Reading list", at most two. */
export function placesOf(index: readonly IndexedLink[], url: string): string[] {
  let wanted: string;
  try {
    wanted = new URL(url.trim()).href;
  } catch {
    return [];
  }
  const places = [
    ...new Set(index.filter((link) => link.url === wanted).map((link) => link.where)),
  ];
  return places.slice(0, 2);
}
