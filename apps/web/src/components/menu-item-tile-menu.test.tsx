import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LONG_PRESS_MS } from '../lib/constants';
import { makeLink } from '../test/menu-fixture';
import { MenuItemTile } from './menu-item-tile';

// jsdom has no PointerEvent: without one, pointer events lose their coordinates.
class TestPointerEvent extends MouseEvent {
  readonly pointerType: string;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerType = init.pointerType ?? 'mouse';
  }
}
if (!('PointerEvent' in window)) {
  Object.defineProperty(window, 'PointerEvent', { value: TestPointerEvent, configurable: true });
}

afterEach(() => {
  vi.useRealTimers();
});

const link = makeLink({ name: 'Grafana' });

describe('item tile context menu', () => {
  it('opens by the three-dot button, which the keyboard reaches', async () => {
    const user = userEvent.setup();
    const onItemMenu = vi.fn();
    render(<MenuItemTile item={link} onItemMenu={onItemMenu} />);
    // Tab from the link itself reaches the button, and Enter opens the menu.
    await user.tab();
    expect(screen.getByRole('link', { name: /Grafana/ })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'More actions for Grafana' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onItemMenu).toHaveBeenCalledWith(link);
  });

  it('opens after a 400 ms press, and the click that ends it does not open the link', () => {
    vi.useFakeTimers();
    const onItemMenu = vi.fn();
    const onOpenLink = vi.fn();
    render(<MenuItemTile item={link} onItemMenu={onItemMenu} onOpenLink={onOpenLink} />);
    const tile = screen.getByRole('link', { name: /Grafana/ });
    fireEvent.pointerDown(tile, { pointerType: 'touch', clientX: 5, clientY: 5 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS - 1));
    expect(onItemMenu).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onItemMenu).toHaveBeenCalledTimes(1);
    fireEvent.pointerUp(tile);
    fireEvent.click(tile);
    expect(onOpenLink).not.toHaveBeenCalled();
  });

  it('ignores a shorter press and a press that moves (a scroll or a drag)', () => {
    vi.useFakeTimers();
    const onItemMenu = vi.fn();
    render(<MenuItemTile item={link} onItemMenu={onItemMenu} />);
    const tile = screen.getByRole('link', { name: /Grafana/ });
    fireEvent.pointerDown(tile, { pointerType: 'touch', clientX: 5, clientY: 5 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS - 100));
    fireEvent.pointerUp(tile);
    fireEvent.pointerDown(tile, { pointerType: 'touch', clientX: 5, clientY: 5 });
    fireEvent.pointerMove(tile, { pointerType: 'touch', clientX: 40, clientY: 5 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS * 2));
    expect(onItemMenu).not.toHaveBeenCalled();
  });

  it('in drag-and-drop lists, opens on release after the hold', () => {
    vi.useFakeTimers();
    const onItemMenu = vi.fn();
    render(<MenuItemTile item={link} onItemMenu={onItemMenu} longPressOnRelease />);
    const tile = screen.getByRole('link', { name: /Grafana/ });
    fireEvent.pointerDown(tile, { pointerType: 'touch', clientX: 5, clientY: 5 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS));
    expect(onItemMenu).not.toHaveBeenCalled();
    fireEvent.pointerUp(tile);
    expect(onItemMenu).toHaveBeenCalledTimes(1);
  });
});
