import { BOOKMARK_EXPORT_FORMATS, type BookmarkExportFormat } from '@signpost/contract';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../lib/config';
import '../lib/panel-texts';

interface Props {
  value: BookmarkExportFormat;
  onChange: (format: BookmarkExportFormat) => void;
  /** A team or organization place: a managed-bookmarks policy may be made of it too. */
  managed?: boolean;
  disabled?: boolean;
  /** The select itself, for a dialog that opens with the focus on it. */
  selectRef?: Ref<HTMLSelectElement>;
}

/** The kind of file an export makes (decision 0087), as a labelled choice. */
export function ExportFormatField({
  value,
  onChange,
  managed = false,
  disabled,
  selectRef,
}: Props) {
  const { t } = useTranslation();
  const formats = BOOKMARK_EXPORT_FORMATS.filter((format) => managed || format !== 'managed');
  return (
    <label className="field">
      <span className="field__label">{t('bookmarks.export.format')}</span>
      <select
        ref={selectRef}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as BookmarkExportFormat)}
      >
        {formats.map((format) => (
          <option key={format} value={format}>
            {t(`bookmarks.formats.${format}`, { brand: config.brand })}
          </option>
        ))}
      </select>
    </label>
  );
}
