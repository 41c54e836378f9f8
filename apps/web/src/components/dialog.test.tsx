import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { OVERLAY_EXIT_MS } from '../lib/constants';
import { Dialog } from './dialog';
import '../lib/i18n';

describe('Dialog', () => {
  it('puts the focus in its first text field when it opens, not on the close button', () => {
    render(
      <Dialog open onClose={vi.fn()} title="Search">
        <input aria-label="Search links" />
      </Dialog>,
    );
    expect(screen.getByRole('textbox', { name: 'Search links' })).toHaveFocus();
  });
});

describe('closing a Dialog', () => {
  it('fades out over the overlay exit time, then calls onClose once', async () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    render(
      <Dialog open onClose={onClose} title="Details">
        <p>Body</p>
      </Dialog>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('dialog')).toHaveClass('dialog--closing');
    expect(onClose).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(OVERLAY_EXIT_MS));
    expect(onClose).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});
