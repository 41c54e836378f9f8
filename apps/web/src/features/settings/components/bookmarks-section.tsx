import type { BookmarkExportFormat } from '@signpost/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportFormatField } from '../../../components/export-format-field';
import { exportBookmarks } from '../../../lib/bookmark-export';
import { serverMessage } from '../../../lib/server-message';
import { SectionMessages, SettingsSection } from './settings-section';
import '../../../lib/panel-texts';

interface Props {
  /** Opens the import of a bookmark file into a new collection of My Space. */
  onImport?: () => void;
}

/**
 * Bookmarks in and out of My Space (decision 0087): the import of a browser's bookmark file or
 * another link manager's export, and an export of My Space in the format chosen.
 */
export function BookmarksSection({ onImport }: Props) {
  const { t } = useTranslation();
  const [format, setFormat] = useState<BookmarkExportFormat>('netscape');
  const download = useMutation({ mutationFn: exportBookmarks });
  return (
    <SettingsSection title={t('settings.bookmarks.title')}>
      {onImport ? (
        <>
          <p className="hint">{t('settings.bookmarks.intro')}</p>
          <p>
            <button type="button" className="button" onClick={onImport}>
              {t('settings.bookmarks.import')}
            </button>
          </p>
        </>
      ) : null}
      <p className="hint">{t('settings.bookmarks.exportIntro')}</p>
      <form
        className="settings-form settings-form--stacked"
        aria-label={t('settings.bookmarks.export')}
        onSubmit={(event) => {
          event.preventDefault();
          download.mutate({ format, space: 'personal' });
        }}
      >
        <ExportFormatField value={format} onChange={setFormat} disabled={download.isPending} />
        <button type="submit" className="button" disabled={download.isPending}>
          {t('settings.bookmarks.export')}
        </button>
      </form>
      <SectionMessages
        error={
          download.error
            ? (serverMessage(download.error)?.text ?? t('bookmarks.export.failed'))
            : null
        }
        notice={
          download.isPending
            ? t('settings.bookmarks.exporting')
            : download.isSuccess
              ? t('settings.bookmarks.exported')
              : null
        }
      />
    </SettingsSection>
  );
}
