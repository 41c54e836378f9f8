import { useEffect } from 'react';

/** The files an import reads (decision 0087): a browser's HTML, a CSV, a JSON export. */
const BOOKMARK_FILE = /\.(html?|csv|json)$/i;

/** A drag of files from outside the page; tiles and links dragged inside it carry none. */
function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** A field that takes a dropped file or text itself. */
function isField(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return target.closest('input, textarea, select') !== null;
}

/**
 * A bookmark file dropped anywhere on the portal (decision 0087) is handed to `onFile`, to
 * open the import with it. Only drags of files count: the tiles' drag and drop (pointer
 * events) and links dragged within the page go on as before, and a field keeps its own drop.
 * A file of another kind is not opened by the browser either, which would leave the portal.
 */
export function useBookmarkFileDrop(onFile: ((file: File) => void) | null) {
  useEffect(() => {
    if (!onFile) return;
    const ours = (event: DragEvent) =>
      carriesFiles(event) && !event.defaultPrevented && !isField(event.target);
    const over = (event: DragEvent) => {
      if (!ours(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const drop = (event: DragEvent) => {
      if (!ours(event)) return;
      event.preventDefault();
      const file = Array.from(event.dataTransfer?.files ?? []).find((candidate) =>
        BOOKMARK_FILE.test(candidate.name),
      );
      if (file) onFile(file);
    };
    window.addEventListener('dragenter', over);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', over);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [onFile]);
}
