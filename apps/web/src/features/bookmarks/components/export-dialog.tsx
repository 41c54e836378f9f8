import type { BookmarkExportFormat } from '@signpost/contract';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { ExportFormatField } from '../../../components/export-format-field';
import { exportBookmarks } from '../../../lib/bookmark-export';
import type { ExportPlace } from '../../../lib/menu/bookmark-places';
import { exportScope, type ExportScope } from '../../../lib/menu/bookmark-scope';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { serverMessage } from '../../../lib/server-message';
import '../../../lib/panel-texts';
import '../bookmarks.css';

export interface BookmarkExportDialogProps {
  scope: ExportScope;
  onClose: () => void;
}

/**
 * A collection or a space as a file (decision 0087): the browser's bookmark file, Signpost's
 * JSON, a CSV, or for a team or organization place a managed-bookmarks policy. The file
 * downloads at once, and the dialog closes.
 */
export function BookmarkExportDialog({ scope, onClose }: BookmarkExportDialogProps) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<BookmarkExportFormat>('netscape');
  const download = useMutation({ mutationFn: exportBookmarks });
  const field = useRef<HTMLSelectElement>(null);
  const submit = () => download.mutate({ format, ...scope.query }, { onSuccess: () => onClose() });
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('bookmarks.export.title', { name: scope.name })}
      initialFocus={field}
    >
      <div className="bookmark-export__body">
        <p className="hint">{t('bookmarks.export.intro')}</p>
        <ExportFormatField
          value={format}
          onChange={setFormat}
          managed={scope.managed}
          disabled={download.isPending}
          selectRef={field}
        />
        <p role="alert" className="form-error">
          {download.error
            ? (serverMessage(download.error)?.text ?? t('bookmarks.export.failed'))
            : null}
        </p>
        <p role="status" className="hint">
          {download.isPending ? t('bookmarks.export.exporting') : null}
        </p>
        <div className="bookmark-export__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('bookmarks.export.cancel')}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={download.isPending}
            onClick={submit}
          >
            {t('bookmarks.export.submit')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * The export as the portal opens it: the collection or space found in the menu; nothing once
 * it is gone from it.
 */
export function BookmarkExportPanel({
  spaces,
  place,
  onClose,
}: {
  spaces: readonly DisplaySpace[];
  place: ExportPlace;
  onClose: () => void;
}) {
  const scope = exportScope(spaces, place);
  return scope ? <BookmarkExportDialog scope={scope} onClose={onClose} /> : null;
}
