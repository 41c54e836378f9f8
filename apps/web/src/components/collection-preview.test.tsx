import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeLink } from '../test/menu-fixture';
import { CollectionPreview } from './menu-item-tile';
import type { ShownCollection } from '../lib/menu/menu-types';
import { OWNED } from '../test/can-fixture';

function collection(items: ShownCollection['items']): ShownCollection {
  return {
    type: 'collection',
    id: 'c1',
    name: 'Crew',
    description: '',
    color: null,
    can: OWNED,
    items,
  };
}

describe('collection preview', () => {
  it('shows up to 4 icons of the links in the collection', () => {
    const links = Array.from({ length: 6 }, (_, i) => makeLink({ name: `Tool ${i}` }));
    const { container } = render(<CollectionPreview collection={collection(links)} />);
    expect(container.querySelectorAll('.link-icon-frame')).toHaveLength(4);
  });

  it('shows a folder, not an empty square, when the collection holds no links', () => {
    const nested = collection([]);
    const { container } = render(
      <CollectionPreview collection={collection([{ ...nested, id: 'c2' }])} />,
    );
    const preview = container.querySelector('.collection-preview');
    expect(preview).toHaveClass('collection-preview--empty');
    expect(preview?.querySelector('svg')).not.toBeNull();
    expect(container.querySelectorAll('.link-icon-frame')).toHaveLength(0);
  });
});
