import { useEffect, useState } from 'react';

/** The open dialog shown on top, if any: the last open one in the document. */
function topDialog(): HTMLDialogElement | null {
  const open = document.querySelectorAll<HTMLDialogElement>('dialog[open]');
  return open.length > 0 ? open[open.length - 1]! : null;
}

/**
 * The modal dialog on top while `active`, followed as panels open and close. A modal
 * dialog makes everything outside it inert, so a notice meant to be used while one is
 * open has to live inside it.
 */
export function useTopDialog(active: boolean): HTMLDialogElement | null {
  const [dialog, setDialog] = useState<HTMLDialogElement | null>(null);
  useEffect(() => {
    if (!active) return;
    const update = () => setDialog(topDialog());
    update();
    const observer = new MutationObserver(update);
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['open'],
    });
    return () => observer.disconnect();
  }, [active]);
  return active ? dialog : null;
}
