import { SESSION_HANDOVER_COOKIE, SESSION_HANDOVER_SECURE_COOKIE } from '@signpost/contract';
import { useSyncExternalStore } from 'react';
import { SESSION_FRAGMENT_MARKER } from './constants';
import { takeSessionFragment, type SessionFragment } from './session-fragment';
import { getSession, initSession } from './session-store';

/**
 * A session token in the address (`#session?token=…`, spec §2) signs in at once only when it
 * is the end of a single sign-on this browser started (decision 0080): the server put a
 * random value beside the token and in a short-lived cookie of this origin, which a link made
 * by anyone else cannot set. Any other token waits here, in memory only, until the person
 * says whether to sign in with it (`SignInOffer`): nothing is replaced before.
 */

function handoverCookieName(): string {
  return window.location.protocol === 'https:'
    ? SESSION_HANDOVER_SECURE_COOKIE
    : SESSION_HANDOVER_COOKIE;
}

/**
 * The hand-over value of this browser's last single sign-on, taken: the cookie is removed
 * whatever it holds, so a value serves once. Null when there is none.
 */
export function takeHandoverCookie(): string | null {
  const name = handoverCookieName();
  let value: string | null = null;
  try {
    for (const part of document.cookie.split(';')) {
      const [key, ...rest] = part.trim().split('=');
      if (key === name) value = rest.join('=') || null;
    }
    if (value !== null) {
      const secure = name === SESSION_HANDOVER_SECURE_COOKIE ? '; Secure' : '';
      document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Strict${secure}`;
    }
  } catch {
    // No cookies in this document: nothing was handed over.
  }
  return value;
}

let offered: string | null = null;
const listeners = new Set<() => void>();

function setOffered(token: string | null) {
  offered = token;
  for (const listener of listeners) listener();
}

/** The token a link brought, waiting for the person's answer; null when none waits. */
export function getOfferedSignIn(): string | null {
  return offered;
}

/** Forgets the token a link brought (answered either way). */
export function dropOfferedSignIn() {
  setOffered(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The token a link brought, re-rendering when it is offered or dropped. */
export function useOfferedSignIn(): string | null {
  return useSyncExternalStore(subscribe, getOfferedSignIn, getOfferedSignIn);
}

/**
 * Starts the session of the page from what the address brought: a single sign-on of this
 * browser signs in with its token; any other token is offered to the person and the session
 * found in storage (or none) goes on meanwhile.
 */
export function startSession(fragment: SessionFragment | null) {
  const handover = takeHandoverCookie();
  if (fragment && fragment.handover !== null && fragment.handover === handover) {
    initSession(fragment.token);
    return;
  }
  initSession(null);
  if (fragment && fragment.token !== getSession().token) setOffered(fragment.token);
}

/**
 * A session token that arrives in the address of an open page (pasted into its address bar:
 * the browser does not load the page again) leaves the address at once too, and is offered
 * in the same way. A single sign-on always comes back with a new page load, so nothing that
 * arrives this way signs in without asking. Called once, at start.
 */
export function offerSessionFragments(): () => void {
  const onChange = () => {
    if (!window.location.hash.slice(1).startsWith(SESSION_FRAGMENT_MARKER)) return;
    const fragment = takeSessionFragment();
    if (fragment && fragment.token !== getSession().token) setOffered(fragment.token);
  };
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}
