// Keys typed right after the search shortcut reach the field even when it takes the focus
// late: they are kept until it does, and given to it then.
import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stopCollectingTyped, useSearchShortcut } from '../hooks/use-search-shortcut';
import { SearchPanel } from './search-panel';

const press = (key: string) =>
  document.body.dispatchEvent(
    new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }),
  );

afterEach(() => stopCollectingTyped());

describe('the search field and the keys typed before it has the focus', () => {
  it('gives the field the keys typed until it takes the focus, however late', () => {
    renderHook(() => useSearchShortcut(() => undefined));
    press('/');
    press('g');
    // The panel opens, but something holds the focus up: the field does not have it yet.
    const focus = vi.spyOn(HTMLInputElement.prototype, 'focus').mockImplementation(() => {});
    render(<SearchPanel index={[]} onClose={() => {}} onOpenLink={() => {}} />);
    const field = screen.getByRole('combobox', { name: 'Search links' });
    expect(field).toHaveValue('g');
    expect(field).not.toHaveFocus();
    press('i');
    press('t');
    focus.mockRestore();
    act(() => field.focus());
    expect(field).toHaveValue('git');
    // From now on the keys are the field's own.
    press('x');
    expect(field).toHaveValue('git');
  });
});
