import { expect, test } from './people-fixtures';
import { consumerCalls, dragWithMouse, dragWithTouch } from './panels-support';
import { expectAccessible, signIn, tokenFor } from './support';

test('drag a link into a collection, back to the parent, then to the trash', async ({
  page,
  request,
  dragDropPerson: person,
}) => {
  const calls = consumerCalls(request, await tokenFor(request, person));
  await calls.createCollection('Outer');
  const outer = await calls.find('Outer');
  await calls.createCollection('Inner', outer.id);
  await calls.createLink(outer.id, 'Dragged');
  await calls.createLink(outer.id, 'Kept');

  await signIn(page, person);
  await page
    .getByRole('region', { name: 'My Space' })
    .getByRole('button', { name: 'Outer', exact: true })
    .click();
  const outerPanel = page.getByRole('dialog', { name: 'Outer' });
  const dragged = () => outerPanel.getByRole('link', { name: /^Dragged/ });

  // Mouse: onto the Inner collection.
  await dragWithMouse(
    page,
    dragged(),
    () => outerPanel.getByRole('button', { name: 'Inner', exact: true }),
    outerPanel.getByTestId('drop-zone-trash'),
  );
  await expect(dragged()).toHaveCount(0);
  await outerPanel.getByRole('button', { name: 'Inner', exact: true }).click();
  const innerPanel = page.getByRole('dialog', { name: 'Inner' });
  const inInner = innerPanel.getByRole('link', { name: /^Dragged/ });
  await expect(inInner).toBeVisible();

  // Inside the child panel, dragging shows the to-parent zone.
  await dragWithMouse(page, inInner, () => innerPanel.getByText('Move to Outer'));
  await expect(inInner).toHaveCount(0);
  await innerPanel.getByRole('button', { name: 'Back' }).click();
  await expect(dragged()).toBeVisible();
  await expectAccessible(page);

  // Keyboard: pick up with the move handle, step to the trash, drop.
  await outerPanel.getByRole('button', { name: 'Move Dragged' }).focus();
  await page.keyboard.press('Space');
  const trash = outerPanel.getByTestId('drop-zone-trash');
  await expect(trash).toBeVisible();
  await expect(outerPanel.getByTestId('drop-zone-to-parent')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(outerPanel.getByTestId('drop-zone-to-parent')).toHaveClass(/drop-zone--over/);
  await page.keyboard.press('ArrowDown');
  await expect(trash).toHaveClass(/drop-zone--over/);
  await page.keyboard.press('Space');
  await expect(dragged()).toHaveCount(0);
  await expect(outerPanel.getByRole('link', { name: /^Kept/ })).toBeVisible();
  const menu = await calls.menu();
  expect(JSON.stringify(menu)).not.toContain('"Dragged"');
});

test.describe('by touch', () => {
  test.use({ hasTouch: true });

  test('a link held for 400 ms can be dragged onto a collection', async ({
    page,
    request,
    touchDragPerson: person,
  }) => {
    const calls = consumerCalls(request, await tokenFor(request, person));
    await calls.createCollection('Touchy');
    const touchy = await calls.find('Touchy');
    await calls.createCollection('Pocket', touchy.id);
    await calls.createLink(touchy.id, 'Tapped');

    await signIn(page, person);
    await page
      .getByRole('region', { name: 'My Space' })
      .getByRole('button', { name: 'Touchy', exact: true })
      .click();
    const panel = page.getByRole('dialog', { name: 'Touchy' });
    // The drag starts once the finger was held still for the long-press time: the zones show.
    await dragWithTouch(
      page,
      panel.getByRole('link', { name: /^Tapped/ }),
      () => panel.getByRole('button', { name: 'Pocket', exact: true }),
      panel.getByTestId('drop-zone-trash'),
    );
    await expect(panel.getByRole('link', { name: /^Tapped/ })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Pocket', exact: true }).click();
    await expect(
      page.getByRole('dialog', { name: 'Pocket' }).getByRole('link', { name: /^Tapped/ }),
    ).toBeVisible();
  });
});
