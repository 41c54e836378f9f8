import type { ClientRect, KeyboardCoordinateGetter } from '@dnd-kit/core';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MenuItemTile } from '../../../components/menu-item-tile';
import { makeLink } from '../../../test/menu-fixture';
import { favorite } from '../../../test/panels-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { DragDropGrid } from './drag-drop-grid';
import { stepThroughTargets } from './keyboard-targets';
import { OWNED } from '../../../test/can-fixture';

const rect = (top: number, left: number): ClientRect => ({
  top,
  left,
  width: 100,
  height: 50,
  right: left + 100,
  bottom: top + 50,
});

function step(code: string, overId: string | null) {
  const rects = new Map([
    ['trash', rect(0, 200)],
    ['to-parent', rect(0, 0)],
    ['collection:a', rect(100, 0)],
  ]);
  const event = new KeyboardEvent('keydown', { code });
  const args = {
    active: 'link:1',
    currentCoordinates: { x: 0, y: 0 },
    context: {
      collisionRect: rect(300, 0),
      droppableRects: rects,
      droppableContainers: { getEnabled: () => [...rects.keys()].map((id) => ({ id })) },
      over: overId ? { id: overId } : null,
    },
  } as unknown as Parameters<KeyboardCoordinateGetter>[1];
  return stepThroughTargets(event, args);
}

describe('keyboard drag: arrow keys step through the drop targets in reading order', () => {
  it('goes to the first target, then the next, and wraps around', () => {
    // Reading order: to-parent (0,0), trash (0,200), collection a (100,0).
    expect(step('ArrowDown', null)).toEqual({ x: 0, y: 0 });
    expect(step('ArrowRight', 'to-parent')).toEqual({ x: 200, y: 0 });
    expect(step('ArrowDown', 'trash')).toEqual({ x: 0, y: 100 });
    expect(step('ArrowDown', 'collection:a')).toEqual({ x: 0, y: 0 });
    expect(step('ArrowUp', 'to-parent')).toEqual({ x: 0, y: 100 });
    expect(step('KeyA', null)).toBeUndefined();
  });
});

describe('DragDropGrid', () => {
  it('gives links and favorites a move handle, not collections; zones wait for a drag', () => {
    const items = [
      makeLink({ name: 'Wiki' }),
      favorite,
      {
        type: 'collection' as const,
        id: 'c1',
        name: 'Projects',
        description: '',
        color: null,
        can: OWNED,
        items: [],
      },
    ];
    renderWithQuery(
      <DragDropGrid
        items={items}
        parent={{ id: 'my', name: 'My Space' }}
        withTrash
        renderTile={(item) => <MenuItemTile item={item} />}
      />,
    );
    expect(screen.getByRole('button', { name: 'Move Wiki' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Move ${favorite.name}` })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move Projects' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Projects/ })).toBeInTheDocument();
    expect(screen.queryByText('Drop here to delete')).not.toBeInTheDocument();
    expect(screen.queryByText('Move to My Space')).not.toBeInTheDocument();
  });

  it('does not open a link dragged with the mouse when the button is released over it', async () => {
    const opened = vi.fn();
    renderWithQuery(
      <DragDropGrid
        items={[makeLink({ name: 'Wiki' })]}
        parent={null}
        withTrash
        renderTile={(item) => <MenuItemTile item={item} onOpenLink={opened} />}
      />,
    );
    const link = screen.getByRole('link', { name: /^Wiki/ });
    fireEvent.mouseDown(link, { button: 0, clientX: 10, clientY: 10 });
    fireEvent.mouseMove(document, { clientX: 40, clientY: 40 });
    expect(await screen.findByText('Drop here to delete')).toBeInTheDocument();
    fireEvent.mouseUp(document, { clientX: 40, clientY: 40 });
    // The browser's click after the release: not followed, not counted as opened.
    expect(fireEvent.click(link)).toBe(false);
    expect(opened).not.toHaveBeenCalled();
    // The guard is gone by the next task: a later click is the browser's to follow.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fireEvent.click(link)).toBe(true);
  });
});
