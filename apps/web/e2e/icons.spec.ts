import { consumerCalls } from './panels-support';
import { expect, test } from './people-fixtures';
import { expectAccessible, signIn, tokenFor } from './support';

// Links' icons come from the portal itself (decision 0068): drawing it asks no other site for
// anything, and the page's policy would not let it. A person who may change a link chooses
// its icon in its details, sees it on the tile, and can go back to the site's.

test('a link’s own icon: uploaded in its details, drawn from the portal, and the site’s again', async ({
  page,
  request,
  baseURL,
  iconPerson: person,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, person));
  const mySpace0 = await calls.find('My Space');
  await calls.createLink(mySpace0.id, 'Team handbook', 'https://handbook.example.com/');

  // Every request the page makes, to see that none leaves the portal.
  const asked: string[] = [];
  page.on('request', (r) => asked.push(`${r.method()} ${r.url()}`));
  const answer = await page.goto('/');
  const policy = answer?.headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/img-src 'self' data:(;|$)/);
  await signIn(page, person);

  const mySpace = page.getByRole('region', { name: 'My Space' });
  const tile = mySpace.getByRole('link', { name: /^Team handbook/ });
  await expect(tile).toBeVisible();
  // No icon yet: the letter shows (this machine cannot reach the site).
  await expect(tile.locator('img')).toHaveCount(0);

  await mySpace.getByRole('button', { name: 'More actions for Team handbook' }).click();
  await page
    .getByRole('dialog', { name: 'Team handbook' })
    .getByRole('button', { name: 'Info' })
    .click();
  const details = page.getByRole('dialog', { name: 'Link details' });
  const section = details.getByRole('region', { name: 'Icon' });
  await expect(section.getByRole('status')).toHaveText(/first letter of the name shows/);
  await expectAccessible(page);

  // A wrong file first: refused in the page, nothing sent.
  const file = section.getByLabel('Image for the icon');
  await file.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hello'),
  });
  await expect(section.getByRole('alert')).toContainText(
    'is not a PNG, JPEG, GIF, WebP or ICO image',
  );
  expect(asked.filter((call) => call.startsWith('PUT '))).toEqual([]);

  // The portal's own app icon as the link's icon.
  const png = await (await request.get('/icons/icon-192.png')).body();
  await file.setInputFiles({ name: 'handbook.png', mimeType: 'image/png', buffer: png });
  await expect(section.getByRole('status')).toHaveText(
    'Uploaded by someone who may change this link.',
  );
  await expect(section.getByRole('button', { name: "Use the site's icon" })).toBeVisible();
  await page.keyboard.press('Escape');

  // The tile draws it, from the portal, at its size.
  const image = tile.locator('img');
  await expect(image).toHaveAttribute('src', /^\/api\/icons\/[A-Za-z0-9_-]+\?size=32$/);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const mine = new URL(baseURL ?? 'http://127.0.0.1').origin;
  expect(asked.filter((call) => call.startsWith('PUT '))).toHaveLength(1);
  const elsewhere = asked.map((call) => call.split(' ')[1] ?? '');
  expect(elsewhere.filter((url) => !url.startsWith(mine) && !url.startsWith('data:'))).toEqual([]);

  // Back to the site's icon: the letter again.
  await mySpace.getByRole('button', { name: 'More actions for Team handbook' }).click();
  await page
    .getByRole('dialog', { name: 'Team handbook' })
    .getByRole('button', { name: 'Info' })
    .click();
  await section.getByRole('button', { name: "Use the site's icon" }).click();
  await expect(section.getByRole('status')).toHaveText(
    /first letter of the name shows|has not been checked/,
  );
  await page.keyboard.press('Escape');
  await expect(tile.locator('img')).toHaveCount(0);
});
