import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MenuItemTile } from '../../../components/menu-item-tile';
import { makeLink } from '../../../test/menu-fixture';
import { renderWithQuery } from '../../../test/render-with-query';
import { DragDropGrid } from './drag-drop-grid';

/** A stand-in for the browser's IntersectionObserver: the test says what is near. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit,
  ) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  /** Tells the observer that the tile holding `inside` is near (or far). */
  report(inside: Element, near: boolean) {
    const target = [...this.targets].find((element) => element.contains(inside));
    if (!target) throw new Error('not observed');
    act(() =>
      this.callback(
        [{ target, isIntersecting: near } as IntersectionObserverEntry],
        this as unknown as IntersectionObserver,
      ),
    );
  }
}

const observer = () => {
  expect(FakeObserver.all).toHaveLength(1);
  return FakeObserver.all[0]!;
};
const handle = (name: string) => screen.getByRole('button', { name: `Move ${name}` });
const place = (name: string) => handle(name).closest('.place')!;
const link = (name: string) => screen.getByRole('link', { name: new RegExp(`^${name}`) });
const trashZone = () => screen.queryByText('Drop here to delete');

function startMouseDrag(name: string) {
  fireEvent.mouseDown(link(name), { button: 0, clientX: 10, clientY: 10 });
  fireEvent.mouseMove(document, { clientX: 40, clientY: 40 });
}
function endMouseDrag() {
  fireEvent.mouseUp(document, { clientX: 40, clientY: 40 });
}

function renderGrid() {
  const items = [makeLink({ name: 'Alpha' }), makeLink({ name: 'Beta' })];
  return renderWithQuery(
    <div style={{ overflowY: 'auto' }} data-testid="box">
      <DragDropGrid
        items={items}
        parent={null}
        withTrash
        reorder={{ id: 'c1', name: 'Projects' }}
        renderTile={(item) => <MenuItemTile item={item} />}
      />
    </div>,
  );
}

describe('DragDropGrid: only the tiles near the screen take part in drag and drop', () => {
  const { scrollIntoView } = Element.prototype;
  beforeEach(() => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    // jsdom lays nothing out; the keyboard sensor scrolls the item it picks up into view.
    Element.prototype.scrollIntoView = () => undefined;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Element.prototype.scrollIntoView = scrollIntoView;
  });

  it('watches every tile with one observer, rooted at the scrolling box', () => {
    renderGrid();
    expect(observer().options.root).toBe(screen.getByTestId('box'));
    expect(observer().options.rootMargin).toBe('50% 0px');
    expect(observer().targets.size).toBe(2);
  });

  it('makes a tile draggable when it comes near the screen, and not once it is far again', () => {
    renderGrid();
    // Far: drawn as the others, skipped by the browser's rendering, and not draggable.
    expect(place('Alpha')).toHaveClass('place--far');
    startMouseDrag('Alpha');
    expect(trashZone()).not.toBeInTheDocument();
    endMouseDrag();

    observer().report(link('Alpha'), true);
    expect(place('Alpha')).not.toHaveClass('place--far');
    startMouseDrag('Alpha');
    expect(trashZone()).toBeInTheDocument();
    endMouseDrag();
    expect(trashZone()).not.toBeInTheDocument();

    observer().report(link('Alpha'), false);
    expect(place('Alpha')).toHaveClass('place--far');
    startMouseDrag('Alpha');
    expect(trashZone()).not.toBeInTheDocument();
    endMouseDrag();
  });

  it('keeps the same elements, and the handle the same attributes, near or far', () => {
    renderGrid();
    const far = handle('Beta');
    const attributes = (element: Element) =>
      Object.fromEntries([...element.attributes].map(({ name, value }) => [name, value]));
    const resting = attributes(far);
    expect(resting['aria-roledescription']).toBe('draggable');
    const instructions = document.getElementById(resting['aria-describedby']!);
    expect(instructions).toHaveTextContent(/space/i);

    observer().report(link('Beta'), true);
    expect(handle('Beta')).toBe(far);
    expect(attributes(handle('Beta'))).toEqual(resting);
  });

  it('brings a tile near when focus enters it, so the keyboard can pick it up', async () => {
    renderGrid();
    act(() => handle('Beta').focus());
    expect(place('Beta')).not.toHaveClass('place--far');
    fireEvent.keyDown(handle('Beta'), { code: 'Space', key: ' ' });
    expect(trashZone()).toBeInTheDocument();
    expect(handle('Beta')).toHaveAttribute('aria-pressed', 'true');
    // Carried, it stays near whatever the observer says, focus or not.
    act(() => handle('Beta').blur());
    observer().report(link('Beta'), false);
    expect(place('Beta')).not.toHaveClass('place--far');
    // The keyboard sensor listens for the keys that follow from the next task on.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(handle('Beta'), { code: 'Escape', key: 'Escape' });
    expect(trashZone()).not.toBeInTheDocument();
    // Put down, out of focus and far: it leaves drag and drop.
    expect(place('Beta')).toHaveClass('place--far');
  });
});
