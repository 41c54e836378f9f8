import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LinkIcon } from './link-icon';

describe('LinkIcon', () => {
  it('shows a letter badge when the link has no icon', () => {
    const { container } = render(<LinkIcon name="wiki" icon={null} />);
    expect(screen.getByTestId('letter-badge')).toHaveTextContent('W');
    expect(container.querySelector('img')).toBeNull();
  });

  it('keeps the badge until the icon has loaded, then shows only the icon', () => {
    const { container } = render(<LinkIcon name="Jira" icon="https://example.com/jira.png" />);
    const img = container.querySelector('img');
    expect(img).toHaveClass('link-icon--pending');
    expect(screen.getByTestId('letter-badge')).toHaveTextContent('J');
    fireEvent.load(img!);
    expect(screen.queryByTestId('letter-badge')).toBeNull();
    expect(container.querySelector('img')).not.toHaveClass('link-icon--pending');
  });

  it('falls back to the badge for good when the icon fails', () => {
    const { container } = render(<LinkIcon name="Zoom" icon="https://example.com/broken.png" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('letter-badge')).toHaveTextContent('Z');
  });
});
