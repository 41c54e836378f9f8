import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
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
