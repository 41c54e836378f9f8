import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { MENU_PAINTED_MARK, resetMenuPaintedMark, useMenuPaintedMark } from './menu-painted-mark';

const marks = () => performance.getEntriesByName(MENU_PAINTED_MARK, 'mark');
const afterNextPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 5)));

// The mark is once per page load: start every test as a page that has not painted the menu
// yet, whatever other test files of the worker rendered before.
beforeEach(() => {
  performance.clearMarks(MENU_PAINTED_MARK);
  resetMenuPaintedMark();
});

describe('menu painted mark', () => {
  it('is not set before the menu is there', async () => {
    renderHook(() => useMenuPaintedMark(false));
    await afterNextPaint();
    expect(marks()).toHaveLength(0);
  });

  it('is set once, after the frame that shows the menu, however often the portal renders', async () => {
    const { rerender } = renderHook(({ ready }) => useMenuPaintedMark(ready), {
      initialProps: { ready: false },
    });
    rerender({ ready: true });
    expect(marks()).toHaveLength(0);
    await afterNextPaint();
    expect(marks()).toHaveLength(1);
    rerender({ ready: false });
    rerender({ ready: true });
    await afterNextPaint();
    expect(marks()).toHaveLength(1);
  });
});

describe('after the menu is painted', () => {
  it('runs the given follow-up once, after the mark', async () => {
    const seen: number[] = [];
    const afterPaint = () => seen.push(marks().length);
    const { rerender } = renderHook(({ ready }) => useMenuPaintedMark(ready, afterPaint), {
      initialProps: { ready: true },
    });
    await afterNextPaint();
    rerender({ ready: true });
    await afterNextPaint();
    expect(seen).toEqual([1]);
  });
});
