import type { ParseKeys } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../../components/icons';
import { ApiError } from '../../../lib/api-client';
import { UNDO_DONE_NOTICE_MS } from '../../../lib/constants';
import {
  dismissUndo,
  usePendingUndo,
  type PendingUndo,
  type UndoKind,
} from '../../../lib/undo/pending-undo';
import { useUndoDeletion } from '../api/undo-deletion';
import { useTopDialog } from '../hooks/use-top-dialog';

const TEXTS: Record<UndoKind, { named: ParseKeys; unnamed: ParseKeys }> = {
  link: { named: 'undo.link', unnamed: 'undo.linkUnnamed' },
  favorite: { named: 'undo.favorite', unnamed: 'undo.favoriteUnnamed' },
  collection: { named: 'undo.collection', unnamed: 'undo.collectionUnnamed' },
  leave: { named: 'undo.leave', unnamed: 'undo.leaveUnnamed' },
  changed: { named: 'undo.changed', unnamed: 'undo.changedUnnamed' },
  moved: { named: 'undo.moved', unnamed: 'undo.movedUnnamed' },
  reordered: { named: 'undo.reordered', unnamed: 'undo.reorderedUnnamed' },
  movedSeveral: { named: 'undo.movedSeveral', unnamed: 'undo.movedUnnamed' },
  deletedSeveral: { named: 'undo.deletedSeveral', unnamed: 'undo.deletedSeveralUnnamed' },
  imported: { named: 'undo.imported', unnamed: 'undo.importedUnnamed' },
};

/** How long a live region put in a new place waits before it gets its text. */
const LIVE_REGION_SETTLE_MS = 50;

/** What the notice says after the Undo button of offer `id` was used. */
type Outcome = { id: string } & (
  { done: true; label: string; kind: UndoKind } | { done: false; message: string }
);

/** Kinds whose undo puts something back as it was rather than bringing it back. */
const CHANGES = new Set<UndoKind>(['changed', 'moved', 'reordered', 'movedSeveral']);

/**
 * The notice after a deletion (decision 0052): "… deleted" with Undo, for the time left of
 * the pending undo (it comes back after a reload within that time). It is a polite status:
 * it never takes the focus, Tab reaches it, Escape dismisses it. While a panel is open it
 * shows inside that panel, since a modal dialog makes the rest of the page inert.
 */
export function UndoNotice() {
  const { t } = useTranslation();
  const live = usePendingUndo();
  const [stored, setOutcome] = useState<Outcome | null>(null);
  const undo = useUndoDeletion();
  const dismissRef = useRef<HTMLButtonElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  // A newer deletion's offer replaces what an earlier undo said.
  const outcome = stored && (!live || live.id === stored.id) ? stored : null;
  const shown = Boolean(live || outcome);
  const target = useTopDialog(shown) ?? document.body;
  // A live region is read out when its text changes, not when it appears with its text: in
  // a new place (a panel opened or closed) the region is put there empty, and filled a
  // moment later.
  const [settled, setSettled] = useState<Element | null>(null);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(target), LIVE_REGION_SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [target]);
  const visible = shown && settled === target;

  // The offer ends at its time (what is left of it after a reload).
  useEffect(() => {
    if (!live) return;
    const timer = window.setTimeout(
      () => dismissUndo(live.id),
      Math.max(0, live.until - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [live]);

  useEffect(() => {
    if (!outcome) return;
    const timer = window.setTimeout(() => setOutcome(null), UNDO_DONE_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [outcome]);

  const dismiss = () => {
    if (live) dismissUndo(live.id);
    setOutcome(null);
  };

  const restore = (offer: PendingUndo) => {
    const hadFocus = noticeRef.current?.contains(document.activeElement) ?? false;
    undo.mutate(offer.id, {
      onSuccess: () =>
        setOutcome({ id: offer.id, done: true, label: offer.label, kind: offer.kind }),
      onError: (error) =>
        setOutcome({
          id: offer.id,
          done: false,
          message: error instanceof ApiError ? error.message : t('undo.failed'),
        }),
      onSettled: () => {
        dismissUndo(offer.id);
        // The Undo button goes; the focus stays in the notice rather than fall to the page.
        if (hadFocus) window.setTimeout(() => dismissRef.current?.focus(), 0);
      },
    });
  };

  // Escape dismisses the notice when the focus is in it (and only it: the panel it sits in
  // stays open), or when no panel is open to take the key.
  useEffect(() => {
    if (!shown) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const inNotice = event.target instanceof Node && noticeRef.current?.contains(event.target);
      if (inNotice) {
        event.preventDefault();
        event.stopPropagation();
      } else if (document.querySelector('dialog[open]')) {
        return;
      }
      dismiss();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  });

  let message = '';
  if (outcome) {
    message = outcome.done
      ? CHANGES.has(outcome.kind)
        ? t('undo.doneChange')
        : outcome.kind === 'imported'
          ? t('undo.doneImport')
          : outcome.label
            ? t('undo.done', { name: outcome.label })
            : t('undo.doneUnnamed')
      : outcome.message;
  } else if (live) {
    const texts = TEXTS[live.kind] ?? TEXTS.link;
    const count = live.count === undefined ? {} : { count: live.count };
    message = live.label ? t(texts.named, { name: live.label, ...count }) : t(texts.unnamed, count);
  }

  return createPortal(
    <div
      ref={noticeRef}
      className={`undo-notice${visible ? ' undo-notice--shown' : ''}`}
      role="status"
      aria-live="polite"
    >
      {visible ? (
        <>
          <span className="undo-notice__text">{message}</span>
          {live && !outcome ? (
            <button
              type="button"
              className="button undo-notice__undo"
              disabled={undo.isPending}
              onClick={() => restore(live)}
            >
              {undo.isPending ? t('undo.undoing') : t('undo.undo')}
            </button>
          ) : null}
          <button
            type="button"
            ref={dismissRef}
            className="icon-button"
            aria-label={t('undo.dismiss')}
            onClick={dismiss}
          >
            <CloseIcon />
          </button>
        </>
      ) : null}
    </div>,
    target,
  );
}
