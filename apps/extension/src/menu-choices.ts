import type { CollectionCan, Menu, MenuItem, Space } from '@signpost/contract';
import { texts } from './texts';

/** A collection the page can go to: added there, or suggested to the people who run it. */
export interface CollectionChoice {
  id: string;
  action: 'add' | 'suggest';
  /** What the chooser shows: the collection's path in its space, or "Suggest to …". */
  label: string;
  /** The group it is listed under: My Space, the shared collections, a team, the organization. */
  group: string;
  /** Where it is, for the success message: "My Space", "Reading list › Talks". */
  where: string;
}

interface CollectionNode {
  id: string;
  name: string;
  can: CollectionCan;
  items: readonly MenuItem[];
}

const SEPARATOR = ' › ';

function isCollection(item: MenuItem): item is MenuItem & CollectionNode {
  return item.type === 'collection' || item.type === 'collection-share';
}

/**
 * Every collection of a space, depth first in the menu's order, with its path of names from
 * the top of the space.
 */
function* walk(
  nodes: readonly CollectionNode[],
  path: string[],
): Generator<{ node: CollectionNode; path: string[] }> {
  for (const node of nodes) {
    const here = [...path, node.name];
    yield { node, path: here };
    yield* walk(node.items.filter(isCollection), here);
  }
}

function spaceChoices(space: Space): CollectionChoice[] {
  const choices: CollectionChoice[] = [];
  for (const top of space.collections) {
    const personalRoot = space.type === 'personal' && top.type === 'collection';
    // My Space is the root of the personal space: its collections' paths start below it.
    // The shared-root lists the shares of others, under its own name.
    const group = top.type === 'shared-root' ? top.name : space.name;
    const starts: CollectionNode[] = top.type === 'shared-root' ? top.items.slice() : [top];
    for (const { node, path } of walk(starts, [])) {
      const shown = personalRoot ? (path.length === 1 ? [texts.mySpace] : path.slice(1)) : path;
      const label = shown.join(SEPARATOR);
      if (node.can.addLink) {
        choices.push({ id: node.id, action: 'add', label, group, where: label });
      } else if (node.can.suggest && space.type !== 'personal') {
        choices.push({
          id: node.id,
          action: 'suggest',
          label: texts.suggestTo(space.name, label),
          group,
          where: label,
        });
      }
    }
  }
  return choices;
}

/**
 * The collections a page can go to, from the menu's `can` flags (decision 0008), in the
 * portal's order: My Space first and its collections, the shares of others, each team, the
 * organization. Where the person may add a link, the page is added; in a team's or the
 * organization's collection where they may not, it is offered as a suggestion to the people
 * who run it; a collection that allows neither is left out.
 */
export function collectionChoices(menu: Menu): CollectionChoice[] {
  return menu.spaces.flatMap(spaceChoices);
}

/** The choice to preselect: the one used last if it is still there, else My Space. */
export function defaultChoice(
  choices: readonly CollectionChoice[],
  lastId: string | null,
): CollectionChoice | null {
  return choices.find((choice) => choice.id === lastId) ?? choices[0] ?? null;
}
