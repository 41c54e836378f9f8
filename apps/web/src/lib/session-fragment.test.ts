import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from './constants';
import { parseSessionFragment, takeSessionFragment } from './session-fragment';
import { clearSession, getSession, initSession } from './session-store';

afterEach(() => {
  clearSession();
  window.history.replaceState(null, '', '/');
});

describe('session fragment', () => {
  it.each([
    ['#session?token=abc', 'abc'],
    ['#session/?token=abc&x=1', 'abc'],
    ['#session?other=1', null],
    ['#sessions?token=abc', null],
    ['#token=abc', null],
    ['', null],
  ])('parses %j', (hash, expected) => {
    expect(parseSessionFragment(hash)).toBe(expected);
  });

  it('takes the token, removes the fragment at once without a new history entry, and signs in', () => {
    window.history.replaceState(null, '', '/portal?x=1#session?token=frag-token');
    const length = window.history.length;
    const replace = vi.spyOn(window.history, 'replaceState');
    const log = vi.spyOn(console, 'log');

    const token = takeSessionFragment();
    initSession(token);

    expect(token).toBe('frag-token');
    expect(replace).toHaveBeenCalledTimes(1);
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/portal?x=1');
    expect(window.history.length).toBe(length);
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('frag-token');
    expect(getSession()).toEqual({ token: 'frag-token', authenticated: true });
    expect(log).not.toHaveBeenCalled();
  });

  it('leaves other fragments alone and falls back to the stored token', () => {
    window.history.replaceState(null, '', '/#about');
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'stored');
    initSession(takeSessionFragment());
    expect(window.location.hash).toBe('#about');
    expect(getSession()).toEqual({ token: 'stored', authenticated: true });
  });

  it('is signed out when no token exists anywhere', () => {
    initSession(takeSessionFragment());
    expect(getSession()).toEqual({ token: null, authenticated: false });
  });
});
