import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the README's screenshots live. */
export const SCREENSHOTS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../docs/screenshots',
);

interface MenuNode {
  type?: string;
  id: string;
  name: string;
  shareId?: string;
  items?: MenuNode[];
}
interface MenuBody {
  profile: { id: string };
  spaces: { id: string; name: string; type: string; collections: MenuNode[] }[];
}

/** Calls of one person, made with their token, to prepare a journey's own data. */
export function consumerCalls(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const menu = async () => {
    const response = await request.get('/api/consumer/menu', { headers });
    expect(response.status()).toBe(200);
    return (await response.json()) as MenuBody;
  };
  const find = async (name: string): Promise<MenuNode> => {
    const walk = (nodes: MenuNode[]): MenuNode | undefined => {
      for (const node of nodes) {
        if (node.name === name) return node;
        const inner = walk(node.items ?? []);
        if (inner) return inner;
      }
      return undefined;
    };
    const found = walk((await menu()).spaces.flatMap((space) => space.collections));
    if (!found) throw new Error(`nothing named ${name} in the menu`);
    return found;
  };
  /** A space of the person's menu by its name: a team's id is the team's, the organization's its own. */
  const space = async (name: string) => {
    const found = (await menu()).spaces.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no space named ${name} in the menu`);
    return found;
  };
  const write = async (method: 'post' | 'put' | 'delete', url: string, data?: unknown) => {
    const response = await request[method](`/api/consumer${url}`, { headers, data });
    expect(response.status(), `${method} ${url}`).toBe(204);
  };
  return {
    menu,
    find,
    space,
    createCollection: (name: string, parentId?: string) =>
      write('post', '/collections/', { name, description: '', ...(parentId ? { parentId } : {}) }),
    /** A top-level collection of a team's or the organization's space, for those who run it. */
    createTopCollection: (name: string, spaceId: string) =>
      write('post', '/collections/', { name, description: '', spaceId }),
    deleteCollection: (id: string) => write('delete', `/collections/${id}/`),
    createLink: (collectionId: string, name: string, url = 'https://example.com/') =>
      write('post', `/collections/${collectionId}/links`, { name, description: '', url }),
    share: (collectionId: string, memberIds: string[]) =>
      write('post', '/collection-shares/', { collectionId, memberIds }),
  };
}

/**
 * Drags with the mouse: press, move past the start distance, then onto the target. What
 * shows once the drag has started (`started`, the drop zones) can move the tiles: the target
 * is measured after it shows.
 */
export async function dragWithMouse(
  page: Page,
  source: Locator,
  target: () => Locator,
  started?: Locator,
) {
  const from = await source.boundingBox();
  if (!from) throw new Error('source not visible');
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 12, y + 12, { steps: 4 });
  if (started) await expect(started).toBeVisible();
  const drop = target();
  await expect(drop).toBeVisible();
  const to = await drop.boundingBox();
  if (!to) throw new Error('target not visible');
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  await page.mouse.up();
}

/**
 * Drags by touch: the finger is held on the source until the drag starts (`started` shows,
 * after the long-press time), then carried in small steps onto where the target is by then
 * (what shows while carrying can move the tiles), and lifted there.
 */
export async function dragWithTouch(
  page: Page,
  source: Locator,
  target: () => Locator,
  started: Locator,
) {
  const from = await source.boundingBox();
  if (!from) throw new Error('source not visible');
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
    });
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  await touch('touchStart', start.x, start.y);
  await expect(started).toBeVisible();
  const to = await target().boundingBox();
  if (!to) throw new Error('target not visible');
  const end = { x: to.x + to.width / 2, y: to.y + to.height / 2 };
  for (let step = 1; step <= 8; step += 1) {
    await touch(
      'touchMove',
      start.x + ((end.x - start.x) * step) / 8,
      start.y + ((end.y - start.y) * step) / 8,
    );
  }
  await touch('touchEnd', end.x, end.y);
  await cdp.detach();
}

/** Holds the pointer on an element until the dialog shows (a long press), then lets go. */
export async function longPress(page: Page, element: Locator, until: Locator) {
  const box = await element.boundingBox();
  if (!box) throw new Error('element not visible');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await expect(until).toBeVisible();
  await page.mouse.up();
}
