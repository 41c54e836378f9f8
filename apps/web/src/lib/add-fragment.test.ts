import { LIMITS } from '@signpost/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NAME_LIMIT,
  nameFromTitle,
  PAGE_TO_ADD_KEEP_MS,
  parseAddFragment,
  takeAddFragment,
  takePageToAdd,
} from './add-fragment';

afterEach(() => {
  takePageToAdd();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  vi.useRealTimers();
});

const fragment = (params: Record<string, string>) => `#add?${new URLSearchParams(params)}`;

describe('the #add fragment', () => {
  it.each([
    [
      fragment({ url: 'https://handbook.example.com/onboarding?step=2#top', title: 'Onboarding' }),
      { url: 'https://handbook.example.com/onboarding?step=2#top', name: 'Onboarding' },
    ],
    // The bookmarklet's encoding of an address with its own query and fragment.
    [
      `#add?url=${encodeURIComponent('https://a.example/?q=x&y=1#h')}&title=${encodeURIComponent('Ä & Ö')}`,
      { url: 'https://a.example/?q=x&y=1#h', name: 'Ä & Ö' },
    ],
    // An address as people type it: the server adds the scheme, as for the add panel.
    [
      fragment({ url: '  intranet.example.com/wiki  ' }),
      { url: 'intranet.example.com/wiki', name: '' },
    ],
    // Any other address is kept as sent: the add panel's check (the server's) refuses it.
    [
      fragment({ url: 'javascript:alert(document.cookie)', title: 'x' }),
      { url: 'javascript:alert(document.cookie)', name: 'x' },
    ],
    [fragment({ url: 'data:text/html,<b>hi</b>' }), { url: 'data:text/html,<b>hi</b>', name: '' }],
  ])('reads %s', (hash, page) => {
    expect(parseAddFragment(hash)).toEqual(page);
  });

  it.each([
    ['#add?title=No%20address'],
    [fragment({ url: '   ', title: 'Blank' })],
    ['#add'],
    ['#added?url=https%3A%2F%2Fa.example'],
    ['#session?token=abc'],
    [''],
  ])('reads no page from %j', (hash) => {
    expect(parseAddFragment(hash)).toBeNull();
  });

  it('makes a title a name: one line, at most the longest name, cut between characters', () => {
    expect(NAME_LIMIT).toBe(LIMITS.name);
    expect(nameFromTitle('  Release\n\tnotes\u0000 2.0 ')).toBe('Release notes 2.0');
    const long = nameFromTitle(`${'🚀'.repeat(150)} ${'a'.repeat(150)}`);
    expect(Array.from(long)).toHaveLength(LIMITS.name);
    expect(long.endsWith('…')).toBe(true);
    expect(long.startsWith('🚀'.repeat(150))).toBe(true);
    expect(nameFromTitle('x'.repeat(LIMITS.name))).toBe('x'.repeat(LIMITS.name));
    expect(
      parseAddFragment(fragment({ url: 'https://a.example/', title: 'y'.repeat(5000) }))?.name,
    ).toHaveLength(LIMITS.name);
  });
});

describe('taking the page out of the address', () => {
  it('removes the fragment at once, without a new history entry, and keeps the page once', () => {
    window.history.replaceState(
      null,
      '',
      `/portal?x=1${fragment({ url: 'https://a.example/', title: 'A' })}`,
    );
    const length = window.history.length;
    takeAddFragment();
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/portal?x=1');
    expect(window.history.length).toBe(length);
    expect(takePageToAdd()).toEqual({ url: 'https://a.example/', name: 'A' });
    expect(takePageToAdd()).toBeNull();
  });

  it('keeps it in the tab through a reload of the page, as a single sign-on makes', () => {
    window.history.replaceState(null, '', fragment({ url: 'https://a.example/', title: 'A' }));
    takeAddFragment();
    // What a new load of the app finds: the tab's storage, not the module's memory.
    expect(JSON.parse(window.sessionStorage.getItem('signpost:page-to-add')!)).toMatchObject({
      url: 'https://a.example/',
      name: 'A',
    });
  });

  it('forgets a page nobody added within the time it is kept', () => {
    vi.useFakeTimers();
    window.history.replaceState(null, '', fragment({ url: 'https://a.example/' }));
    takeAddFragment();
    vi.advanceTimersByTime(PAGE_TO_ADD_KEEP_MS + 1);
    expect(takePageToAdd()).toBeNull();
  });

  it('clears an #add fragment without an address, and leaves other fragments alone', () => {
    window.history.replaceState(null, '', '/#add?title=Nothing');
    takeAddFragment();
    expect(window.location.hash).toBe('');
    expect(takePageToAdd()).toBeNull();

    window.history.replaceState(null, '', '/#invitation=abcDEF123_-abcDEF123');
    takeAddFragment();
    expect(window.location.hash).toBe('#invitation=abcDEF123_-abcDEF123');
    expect(takePageToAdd()).toBeNull();
  });
});
