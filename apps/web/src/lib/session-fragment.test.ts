import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from './constants';
import {
  dropOfferedSignIn,
  getOfferedSignIn,
  offerSessionFragments,
  startSession,
  takeHandoverCookie,
} from './fragment-sign-in';
import {
  parseSessionFragment,
  parseSessionHandover,
  takeSessionFragment,
} from './session-fragment';
import { clearSession, getSession } from './session-store';

const HANDOVER = 'h'.repeat(43);

/** The cookie a single sign-on's callback sets in this browser (decision 0080). */
function handedOver(value = HANDOVER) {
  document.cookie = `signpost_handover=${value}; Path=/; SameSite=Strict`;
}

afterEach(() => {
  clearSession();
  dropOfferedSignIn();
  document.cookie = 'signpost_handover=; Path=/; Max-Age=0';
  window.history.replaceState(null, '', '/');
});

describe('session fragment', () => {
  it.each([
    ['#session?token=abc', 'abc'],
    ['#session/?token=abc&x=1', 'abc'],
    ['#session?token=abc&handover=xyz', 'abc'],
    ['#session?other=1', null],
    ['#sessions?token=abc', null],
    ['#token=abc', null],
    ['', null],
  ])('parses %j', (hash, expected) => {
    expect(parseSessionFragment(hash)).toBe(expected);
  });

  it.each([
    [`#session?token=abc&handover=${HANDOVER}`, { token: 'abc', handover: HANDOVER }],
    ['#session?token=abc', { token: 'abc', handover: null }],
    // Not a value the server makes: no hand-over.
    ['#session?token=abc&handover=short', { token: 'abc', handover: null }],
    ['#session?token=abc&handover=a%3Bb%20c', { token: 'abc', handover: null }],
    ['#session?handover=abc', null],
  ])('reads the hand-over of %j', (hash, expected) => {
    expect(parseSessionHandover(hash)).toEqual(expected);
  });

  it('takes the token out of the address at once, without a new history entry or a log', () => {
    window.history.replaceState(
      null,
      '',
      `/portal?x=1#session?token=frag-token&handover=${HANDOVER}`,
    );
    const length = window.history.length;
    const replace = vi.spyOn(window.history, 'replaceState');
    const log = vi.spyOn(console, 'log');

    expect(takeSessionFragment()).toEqual({ token: 'frag-token', handover: HANDOVER });
    expect(replace).toHaveBeenCalledTimes(1);
    expect(window.location.hash).toBe('');
    expect(window.location.href).not.toContain('frag-token');
    expect(window.location.pathname + window.location.search).toBe('/portal?x=1');
    expect(window.history.length).toBe(length);
    expect(log).not.toHaveBeenCalled();
  });

  it('signs in with the token a single sign-on of this browser handed over, without asking', () => {
    handedOver();
    window.history.replaceState(null, '', `/#session?token=sso-token&handover=${HANDOVER}`);
    startSession(takeSessionFragment());
    expect(getSession()).toEqual({ token: 'sso-token', authenticated: true });
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('sso-token');
    expect(getOfferedSignIn()).toBeNull();
    // The cookie served once.
    expect(document.cookie).not.toContain('signpost_handover');
  });

  it.each([
    ['no hand-over at all', null, '#session?token=their-token'],
    ['a hand-over this browser never got', null, `#session?token=their-token&handover=${HANDOVER}`],
    [
      'another sign-in’s hand-over',
      'o'.repeat(43),
      `#session?token=their-token&handover=${HANDOVER}`,
    ],
    ['a hand-over cookie but none in the link', HANDOVER, '#session?token=their-token'],
  ])(
    'asks before signing in with a link’s token: %s; the session here goes on meanwhile',
    (_case, cookie, hash) => {
      if (cookie) handedOver(cookie);
      window.localStorage.setItem(TOKEN_STORAGE_KEY, 'my-token');
      window.history.replaceState(null, '', `/${hash}`);
      startSession(takeSessionFragment());
      expect(window.location.hash).toBe('');
      expect(getSession()).toEqual({ token: 'my-token', authenticated: true });
      expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('my-token');
      expect(getOfferedSignIn()).toBe('their-token');
      expect(document.cookie).not.toContain('signpost_handover');
    },
  );

  it('asks a person who is signed out too, and leaves them signed out meanwhile', () => {
    window.history.replaceState(null, '', '/#session?token=their-token');
    startSession(takeSessionFragment());
    expect(getSession()).toEqual({ token: null, authenticated: false });
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(getOfferedSignIn()).toBe('their-token');
  });

  it('asks nothing for the token already signed in here', () => {
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'my-token');
    window.history.replaceState(null, '', '/#session?token=my-token');
    startSession(takeSessionFragment());
    expect(getOfferedSignIn()).toBeNull();
    expect(getSession()).toEqual({ token: 'my-token', authenticated: true });
  });

  it('leaves other fragments alone and falls back to the stored token', () => {
    window.history.replaceState(null, '', '/#about');
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'stored');
    startSession(takeSessionFragment());
    expect(window.location.hash).toBe('#about');
    expect(getSession()).toEqual({ token: 'stored', authenticated: true });
  });

  it('is signed out when no token exists anywhere', () => {
    startSession(takeSessionFragment());
    expect(getSession()).toEqual({ token: null, authenticated: false });
    expect(getOfferedSignIn()).toBeNull();
  });

  it('takes the hand-over cookie once, whatever the address holds', () => {
    handedOver();
    expect(takeHandoverCookie()).toBe(HANDOVER);
    expect(takeHandoverCookie()).toBeNull();
  });

  it('takes a token pasted into an open page’s address out of it, and asks; never signs in', () => {
    handedOver();
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'my-token');
    startSession(takeSessionFragment());
    const stop = offerSessionFragments();
    try {
      window.history.replaceState(null, '', `/#session?token=their-token&handover=${HANDOVER}`);
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      expect(window.location.hash).toBe('');
      expect(getOfferedSignIn()).toBe('their-token');
      expect(getSession()).toEqual({ token: 'my-token', authenticated: true });

      // Other fragments are not its business.
      dropOfferedSignIn();
      window.history.replaceState(null, '', '/#add?url=https%3A%2F%2Fx.example');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      expect(window.location.hash).toBe('#add?url=https%3A%2F%2Fx.example');
      expect(getOfferedSignIn()).toBeNull();
    } finally {
      stop();
    }
  });
});
