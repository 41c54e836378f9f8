import { useSyncExternalStore } from 'react';
import { UNDO_NOTICE_MS } from '../constants';
import { getSession } from '../session-store';
import { onDeparture } from '../personal-data';
import { tokenKey } from '../storage';
import { PENDING_UNDO_KEY } from '../storage-keys';

/** What was deleted (decision 0052) or changed (decision 0076), for the notice's text. */
export type UndoKind =
  | 'link'
  | 'favorite'
  | 'collection'
  | 'leave'
  | 'changed'
  | 'moved'
  | 'reordered'
  | 'movedSeveral'
  | 'deletedSeveral'
  /** Bookmarks imported from a file (decision 0087): undoing removes what came in. */
  | 'imported';

/** The deletion that can be undone now: at most one, the latest. */
export interface PendingUndo {
  /** The server's snapshot id (the `signpost-undo-id` header). */
  id: string;
  kind: UndoKind;
  /** The name of what was deleted; may be empty. */
  label: string;
  /** How many things it was, for the texts that count them (links imported). */
  count?: number;
  /** Until when the notice shows, in this browser's clock (ms since the epoch). */
  until: number;
}

/**
 * The pending undo lives in session storage, so that a reload within the notice's time
 * brings it back for the time left; it belongs to the session that deleted (a short hash
 * of its token), so another sign-in in the same tab never sees it.
 */
const KEY = PENDING_UNDO_KEY;

interface Stored extends PendingUndo {
  session: string;
}

const listeners = new Set<() => void>();
let cached: { key: string; value: PendingUndo | null } = { key: '', value: null };

function readRaw(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function writeRaw(value: string | null) {
  try {
    if (value === null) window.sessionStorage.removeItem(KEY);
    else window.sessionStorage.setItem(KEY, value);
  } catch {
    // Storage disabled: the notice still shows, it only does not survive a reload.
  }
}

let memory: string | null = null;

// The offer names what was deleted: it goes with the session (decision 0080); session storage
// is emptied by `forgetPerson`.
onDeparture(() => {
  memory = null;
  emit();
});

function currentSession(): string | null {
  const { token } = getSession();
  return token ? tokenKey(token) : null;
}

function parse(raw: string | null): PendingUndo | null {
  if (!raw) return null;
  try {
    const stored = JSON.parse(raw) as Partial<Stored>;
    // Read once per stored value (getPendingUndo caches it): an offer whose time passed
    // before this read — a reload after it — is not offered again.
    if (
      typeof stored.id !== 'string' ||
      typeof stored.until !== 'number' ||
      stored.until <= Date.now() ||
      stored.session !== currentSession()
    ) {
      return null;
    }
    return {
      id: stored.id,
      kind: stored.kind ?? 'link',
      label: typeof stored.label === 'string' ? stored.label : '',
      ...(typeof stored.count === 'number' ? { count: stored.count } : {}),
      until: stored.until,
    };
  } catch {
    return null;
  }
}

function emit() {
  for (const listener of listeners) listener();
}

/** The pending undo, if any (its time may have run out: the caller compares `until`). */
export function getPendingUndo(): PendingUndo | null {
  const raw = readRaw() ?? memory;
  const key = `${currentSession() ?? ''}\n${raw ?? ''}`;
  if (key !== cached.key) cached = { key, value: parse(raw) };
  return cached.value;
}

/** Offers to undo a deletion the server just made: it replaces any earlier offer. */
export function offerUndo(offer: Omit<PendingUndo, 'until'>, now = Date.now()) {
  const session = currentSession();
  if (!session) return;
  const stored: Stored = { ...offer, until: now + UNDO_NOTICE_MS, session };
  memory = JSON.stringify(stored);
  writeRaw(memory);
  emit();
}

/** Forgets the offer (dismissed, undone, or its time ran out); only `id`'s, when given. */
export function dismissUndo(id?: string) {
  const pending = getPendingUndo();
  if (id !== undefined && pending?.id !== id) return;
  memory = null;
  writeRaw(null);
  emit();
}

export function subscribePendingUndo(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The pending undo, re-rendering when it is offered or forgotten. */
export function usePendingUndo(): PendingUndo | null {
  return useSyncExternalStore(subscribePendingUndo, getPendingUndo, getPendingUndo);
}

const undoneListeners = new Set<(id: string) => void>();

/**
 * Says that the undo `id` was applied: a view that said what a write did (the console's
 * broken links: "deleted", "address saved") says it again as it is now.
 */
export function announceUndone(id: string) {
  for (const listener of [...undoneListeners]) listener(id);
}

/** Hears of every undo applied in this tab, by its id; returns the unsubscribe. */
export function subscribeUndone(listener: (id: string) => void) {
  undoneListeners.add(listener);
  return () => {
    undoneListeners.delete(listener);
  };
}
