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
    const { container } = render(<LinkIcon name="Jira" icon="/api/icons/jiraJiraJiraJiraJira" />);
    const img = container.querySelector('img');
    expect(img).toHaveClass('link-icon--pending');
    expect(screen.getByTestId('letter-badge')).toHaveTextContent('J');
    fireEvent.load(img!);
    expect(screen.queryByTestId('letter-badge')).toBeNull();
    expect(container.querySelector('img')).not.toHaveClass('link-icon--pending');
  });

  it("draws the kept icon at the tile's size and at twice and three times the pixels", () => {
    const { container } = render(<LinkIcon name="Jira" icon="/api/icons/jiraJiraJiraJiraJira" />);
    const img = container.querySelector('img');
    expect(img).toHaveAttribute('src', '/api/icons/jiraJiraJiraJiraJira?size=32');
    expect(img).toHaveAttribute(
      'srcset',
      '/api/icons/jiraJiraJiraJiraJira?size=64 2x, /api/icons/jiraJiraJiraJiraJira?size=96 3x',
    );
  });

  it('draws a larger icon at the size asked for', () => {
    const { container } = render(<LinkIcon name="Jira" icon="/api/icons/jira" size={64} />);
    const img = container.querySelector('img');
    expect(img).toHaveAttribute('src', '/api/icons/jira?size=64');
    expect(img).toHaveAttribute(
      'srcset',
      '/api/icons/jira?size=128 2x, /api/icons/jira?size=192 3x',
    );
    expect(img).toHaveAttribute('width', '64');
  });

  it('never draws an icon from another site, only its letter badge', () => {
    for (const icon of ['https://example.com/jira.png', '//example.com/x.png', '/api/icons/../x']) {
      const { container, unmount } = render(<LinkIcon name="Jira" icon={icon} />);
      expect(container.querySelector('img')).toBeNull();
      expect(screen.getByTestId('letter-badge')).toHaveTextContent('J');
      unmount();
    }
  });

  it('falls back to the badge for good when the icon fails', () => {
    const { container } = render(<LinkIcon name="Zoom" icon="/api/icons/zoomZoomZoomZoomZoom" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('letter-badge')).toHaveTextContent('Z');
  });
});
