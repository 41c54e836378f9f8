import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { bookmarklet } from './bookmarklet';
import { BrowserSection } from './browser-section';

/** Runs a bookmarklet as a browser does, on a page at `href` titled `title`. */
function runOn(code: string, page: { href: string; title: string }, opens: boolean) {
  expect(code.startsWith('javascript:')).toBe(true);
  // A browser decodes the address before it runs it; the script must survive that unchanged.
  const script = decodeURIComponent(code.slice('javascript:'.length));
  expect(script).toBe(code.slice('javascript:'.length));
  const location = { href: page.href };
  const open = vi.fn(() => (opens ? {} : null));
  const result = new Function('location', 'document', 'window', `return ${script}`)(
    location,
    { title: page.title },
    { open },
  );
  return { open, location, result };
}

describe('the bookmarklet', () => {
  const page = {
    href: 'https://news.example.com/story?id=7&ref=x#part-2',
    title: 'A story: “Q&A”',
  };
  const expected =
    'https://links.example.com/#add?url=' +
    encodeURIComponent(page.href) +
    '&title=' +
    encodeURIComponent(page.title);

  it('opens the portal with the page’s address and title in a new tab, and returns nothing', () => {
    const { open, location, result } = runOn(bookmarklet('https://links.example.com'), page, true);
    expect(open).toHaveBeenCalledWith(expected, '_blank');
    expect(location.href).toBe(page.href);
    expect(result).toBeUndefined();
  });

  it('opens it in the same tab where the browser refused a new one', () => {
    const { location } = runOn(bookmarklet('https://links.example.com'), page, false);
    expect(location.href).toBe(expected);
  });
});

describe('the settings section “Add pages from your browser”', () => {
  it('offers the bookmarklet of this portal to drag, to copy, and names the extension', async () => {
    const user = userEvent.setup();
    // The user-event clipboard stands in for the browser's.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    render(<BrowserSection />);
    const section = screen.getByRole('region', { name: 'Add pages from your browser' });
    expect(section).toHaveTextContent(
      'Drag this button to your bookmarks bar. On any page, click the bookmark: Signpost opens with the page’s title and address filled in, to add it to My Space.',
    );
    const link = screen.getByRole('link', { name: 'Add to Signpost' });
    const code = bookmarklet(window.location.origin);
    expect(link.getAttribute('href')).toBe(code);
    expect(link.getAttribute('draggable')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Copy the bookmarklet' }));
    expect(writeText).toHaveBeenCalledWith(code);
    expect(section).toHaveTextContent(
      'The Signpost extension for Chromium browsers and Firefox does the same from the toolbar',
    );
  });

  it('says to drag it when it is clicked on the portal, and runs nothing', () => {
    render(<BrowserSection />);
    const link = screen.getByRole('link', { name: 'Add to Signpost' });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    fireEvent(link, click);
    expect(click.defaultPrevented).toBe(true);
    expect(
      screen.getByText('Drag the button to your bookmarks bar: it works there, not here.'),
    ).toHaveAttribute('role', 'status');
    // Rendered again with the hint, the link keeps the bookmarklet's address.
    expect(link.getAttribute('href')).toBe(bookmarklet(window.location.origin));
  });
});
