import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CollectionPanel } from './collection-panel';

const collection = { id: 'c-1', name: 'Trips', description: '', items: [] };

describe("a collection panel's header menu", () => {
  it('closes alone on Escape, its panel staying open, and gives focus back to its button', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const onCancel = vi.fn();
    render(
      <CollectionPanel
        collection={collection}
        onBack={vi.fn()}
        onClose={onClose}
        onDetails={vi.fn()}
        onAddLink={vi.fn()}
      />,
    );
    // The browser closes a modal dialog on an Escape that nobody took (its cancel event).
    screen.getByRole('dialog', { name: 'Trips' }).addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onCancel();
    });
    const toggle = screen.getByRole('button', { name: 'Collection menu' });
    await user.click(toggle);
    screen.getByRole('button', { name: 'Add link' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Add link' })).not.toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
    expect(onCancel).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on a press elsewhere in the panel', async () => {
    const user = userEvent.setup();
    render(
      <CollectionPanel
        collection={{ ...collection, description: 'Where we go' }}
        onBack={vi.fn()}
        onClose={vi.fn()}
        onDetails={vi.fn()}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Collection menu' }));
    expect(screen.getByRole('button', { name: 'Details' })).toBeInTheDocument();
    await user.click(screen.getByText('Where we go'));
    expect(screen.queryByRole('button', { name: 'Details' })).not.toBeInTheDocument();
  });
});
