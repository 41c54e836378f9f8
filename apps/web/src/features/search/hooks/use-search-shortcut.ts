import { useEffect } from 'react';

function isTyping(target: EventTarget | null) {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/**
 * How long after the shortcut the keys typed outside any field still count as the start of
 * the query (the panel's script may still be loading, its field not focused yet).
 */
const OPENING_MS = 3000;

/** What was typed between the shortcut and the search field taking the focus. */
const typed = { text: '', until: 0 };

/**
 * The text typed since the search was opened by its shortcut, before its field could take
 * the keys: the panel starts its query with it (`useState(typedBeforeFocus)`), so that
 * "/git" typed in one go searches for "git" however long the panel took to appear.
 */
export function typedBeforeFocus(): string {
  return Date.now() <= typed.until ? typed.text : '';
}

/** The field has the focus: later keys go to it. */
export function stopCollectingTyped() {
  typed.text = '';
  typed.until = 0;
}

/** Opens the search with `/` (outside text fields) and with Ctrl+K or ⌘K anywhere. */
export function useSearchShortcut(open: () => void) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const modifier = event.ctrlKey || event.metaKey;
      const opening = () => {
        event.preventDefault();
        typed.text = '';
        typed.until = Date.now() + OPENING_MS;
        open();
      };
      if (modifier && event.key.toLowerCase() === 'k') {
        opening();
      } else if (isTyping(event.target) || Date.now() > typed.until) {
        if (event.key === '/' && !modifier && !event.altKey && !isTyping(event.target)) opening();
      } else if (event.key.length === 1 && !modifier && !event.altKey) {
        // The search is opening and its field cannot take this key yet: keep it for it.
        event.preventDefault();
        typed.text += event.key;
      } else if (event.key === 'Backspace') {
        event.preventDefault();
        typed.text = typed.text.slice(0, -1);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open]);
}
