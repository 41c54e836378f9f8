// Arranging (decision 0075): the order a step or a drop sends, and where Move to… offers.
import { describe, expect, it } from 'vitest';
import { RUN_LINK, RUNS } from '../../test/can-fixture';
import { makeLink, makeMenu } from '../../test/menu-fixture';
import { panelsMenu } from '../../test/panels-fixture';
import { moveTargets, orderAfterDrop, orderAfterStep, stepsOf } from './arrange';
import { locateCollection, locateItem } from './locate-item';
import { processMenu } from './process-menu';

const links = ['a', 'b', 'c', 'd'].map((id) => makeLink({ id, name: id.toUpperCase() }));
const parent = { items: links } as Parameters<typeof orderAfterDrop>[0];
const ids = (order: { items: { id: string }[] } | null) => order?.items.map((item) => item.id);

describe('a new order', () => {
  it('steps an item up or down by one, naming every item once', () => {
    const container = locateCollection(panelsMenu().spaces, 'my')?.collection;
    expect(container).toBeDefined();
    expect(ids(orderAfterStep({ ...container!, items: links }, links[1]!, -1))).toEqual([
      'b',
      'a',
      'c',
      'd',
    ]);
    expect(ids(orderAfterStep({ ...container!, items: links }, links[3]!, 1))).toBeUndefined();
    expect(ids(orderAfterStep({ ...container!, items: links }, links[0]!, -1))).toBeUndefined();
  });

  it('puts a dropped item in the place of the one it was dropped on, either way', () => {
    expect(ids(orderAfterDrop(parent, links[0]!, links[2]!))).toEqual(['b', 'c', 'a', 'd']);
    expect(ids(orderAfterDrop(parent, links[3]!, links[0]!))).toEqual(['d', 'a', 'b', 'c']);
    expect(ids(orderAfterDrop(parent, links[1]!, links[3]!))).toEqual(['a', 'c', 'd', 'b']);
  });

  it('is nothing for a drop on its own place or on an item of another collection', () => {
    expect(orderAfterDrop(parent, links[1]!, links[1]!)).toBeNull();
    expect(orderAfterDrop(parent, links[1]!, makeLink({ id: 'elsewhere' }))).toBeNull();
  });

  it('leaves the Add tile out, and names a shared collection as a collection', () => {
    const menu = panelsMenu();
    const { parent: mySpace } = locateItem(menu.spaces, 'link', 'root-link')!;
    expect(mySpace.items.some((item) => item.type === 'addlink')).toBe(true);
    const order = orderAfterStep(mySpace, locateItem(menu.spaces, 'link', 'root-link')!.item, 1)!;
    expect(order.items.some((item) => (item.type as string) === 'addlink')).toBe(false);
    expect(order.items.some((item) => (item.type as string) === 'collection-share')).toBe(false);
  });

  it('offers no step where the collection may not be reordered', () => {
    const menu = panelsMenu();
    expect(stepsOf(locateItem(menu.spaces, 'link', 'team-link')!)).toEqual({
      up: false,
      down: false,
    });
  });
});

describe('Move to…', () => {
  // A team as its editor sees it: a top-level collection with a collection three levels deep.
  const spaces = processMenu(
    makeMenu({
      teamEditor: true,
      teamCan: RUNS,
      teamItems: [
        makeLink({ id: 'runbook', name: 'Runbook', can: RUN_LINK }),
        {
          type: 'collection',
          id: 'one',
          name: 'One',
          description: '',
          color: null,
          can: RUNS,
          linkCan: RUN_LINK,
          items: [
            {
              type: 'collection',
              id: 'two',
              name: 'Two',
              description: '',
              color: null,
              can: RUNS,
              linkCan: RUN_LINK,
              items: [
                {
                  type: 'collection',
                  id: 'three',
                  name: 'Three',
                  description: '',
                  color: null,
                  can: RUNS,
                  linkCan: RUN_LINK,
                  items: [],
                },
              ],
            },
          ],
        },
      ],
    }),
  ).spaces;

  it('offers every collection of the space at any depth, with where it lives, but its own', () => {
    const targets = moveTargets(locateItem(spaces, 'link', 'runbook')!);
    expect(targets.map((target) => target.id)).toEqual(['one', 'two', 'three']);
    expect(targets.at(-1)).toMatchObject({ depth: 3 });
    expect(targets.at(-1)!.path.slice(-3)).toEqual(['One', 'Two', 'Three']);
  });

  it('never offers a collection itself or anything inside it', () => {
    const targets = moveTargets(locateItem(spaces, 'collection', 'two')!);
    expect(targets.map((target) => target.id)).not.toContain('two');
    expect(targets.map((target) => target.id)).not.toContain('three');
    expect(targets.map((target) => target.id)).not.toContain('one');
  });

  it('never leaves the space: no collection of My Space is offered for a team link', () => {
    const targets = moveTargets(locateItem(spaces, 'link', 'runbook')!);
    expect(targets.every((target) => !target.path.includes('My Space'))).toBe(true);
  });
});
