import { INVITATION_FRAGMENT } from '@signpost/contract';

/** The token of a `#invitation=<token>` fragment, or null. */
export function parseInvitationFragment(hash: string): string | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  const prefix = `${INVITATION_FRAGMENT}=`;
  if (!fragment.startsWith(prefix)) return null;
  const token = fragment.slice(prefix.length).trim();
  return /^[A-Za-z0-9_-]{16,200}$/.test(token) ? token : null;
}

/**
 * Takes an invitation token out of the address: the fragment is removed at once (no new
 * history entry, nothing stays visible) and the token returned, or null.
 */
export function takeInvitationFragment(location: Location = window.location): string | null {
  if (!location.hash.slice(1).startsWith(`${INVITATION_FRAGMENT}=`)) return null;
  const token = parseInvitationFragment(location.hash);
  window.history.replaceState(window.history.state, '', location.pathname + location.search);
  return token;
}

let pending: string | null = null;

/**
 * The invitation token the address carries, taken out of it, or the one taken before
 * (so that a render run twice still sees it), until `forgetInvitation`.
 */
export function pendingInvitation(): string | null {
  const fresh = takeInvitationFragment();
  if (fresh) pending = fresh;
  return pending;
}

export function forgetInvitation() {
  pending = null;
}
