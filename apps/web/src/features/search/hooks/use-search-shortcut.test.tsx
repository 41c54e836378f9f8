import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stopCollectingTyped, typedBeforeFocus, useSearchShortcut } from './use-search-shortcut';

const press = (key: string, init: KeyboardEventInit = {}, target: EventTarget = document.body) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
};

afterEach(() => {
  stopCollectingTyped();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('the search shortcut', () => {
  it('opens with / and keeps the keys typed before the field can take them', () => {
    const open = vi.fn();
    renderHook(() => useSearchShortcut(open));
    expect(press('/').defaultPrevented).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
    for (const key of ['g', 'i', 'x']) expect(press(key).defaultPrevented).toBe(true);
    press('Backspace');
    press('t');
    expect(typedBeforeFocus()).toBe('git');
    // Once the field has the focus, keys are its own.
    stopCollectingTyped();
    expect(press('h').defaultPrevented).toBe(false);
    expect(typedBeforeFocus()).toBe('');
  });

  it('keeps them after Ctrl+K too, but never takes keys meant for a text field', () => {
    const open = vi.fn();
    renderHook(() => useSearchShortcut(open));
    const field = document.body.appendChild(document.createElement('input'));
    expect(press('/', {}, field).defaultPrevented).toBe(false);
    expect(open).not.toHaveBeenCalled();
    press('k', { ctrlKey: true }, field);
    expect(open).toHaveBeenCalledTimes(1);
    expect(press('a', {}, field).defaultPrevented).toBe(false);
    press('a');
    expect(typedBeforeFocus()).toBe('a');
  });

  it('stops keeping keys 3 seconds after the shortcut, when the panel never came', () => {
    vi.useFakeTimers();
    const open = vi.fn();
    renderHook(() => useSearchShortcut(open));
    press('/');
    press('a');
    vi.advanceTimersByTime(3001);
    expect(typedBeforeFocus()).toBe('');
    expect(press('b').defaultPrevented).toBe(false);
    // And a modified key is never text: Ctrl+C copies as ever.
    press('/');
    expect(press('c', { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(typedBeforeFocus()).toBe('');
  });
});
