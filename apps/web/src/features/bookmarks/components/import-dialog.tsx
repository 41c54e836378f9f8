import {
  BOOKMARK_IMPORT_LIMITS,
  type BookmarkImportPreview,
  type BookmarkImportTarget,
} from '@signpost/contract';
import { useEffect, useEffectEvent, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { config } from '../../../lib/config';
import { importPlaceName } from '../../../lib/menu/bookmark-scope';
import type { DisplaySpace } from '../../../lib/menu/menu-types';
import { serverMessage } from '../../../lib/server-message';
import { offerUndo } from '../../../lib/undo/pending-undo';
import { useBookmarkImport, useBookmarkImportPreview } from '../api/import-bookmarks';
import '../../../lib/panel-texts';
import '../bookmarks.css';
import { readTextFile } from '../../../lib/read-text-file';

const MB = 1024 * 1024;

export interface BookmarkImportDialogProps {
  target: BookmarkImportTarget;
  /** The collection the links go into, or the space of the new collection. */
  placeName?: string;
  /** A file dropped on the portal: read at once, as if chosen. */
  file?: File | null;
  onClose: () => void;
}

/**
 * Bookmarks from a file (decision 0087): the file is read in the browser, the server says what
 * it would import, what is there already and what it would leave out (each with its folder and
 * why), and nothing is written until Import. The import can be undone from the notice that
 * says what it did.
 */
export function BookmarkImportDialog({
  target,
  placeName = '',
  file: given = null,
  onClose,
}: BookmarkImportDialogProps) {
  const { t, i18n } = useTranslation();
  const fileField = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ name: string; text: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [duplicates, setDuplicates] = useState<'skip' | 'keep'>('skip');
  const preview = useBookmarkImportPreview();
  const importing = useBookmarkImport();
  const { reset: resetPreview, mutate: askPreview } = preview;
  const { reset: resetImport } = importing;
  const choiceName = useId();
  const plan: BookmarkImportPreview | undefined = chosen ? preview.data : undefined;

  const megabytes = (bytes: number) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(bytes / MB);

  // The latest file wins: a file read after another was chosen is dropped.
  const latest = useRef<File | null>(null);
  const choose = async (file: File | undefined) => {
    latest.current = file ?? null;
    resetPreview();
    resetImport();
    setChosen(null);
    setProblem(null);
    setDuplicates('skip');
    if (!file) return;
    setReading(true);
    const read = await readTextFile(file, BOOKMARK_IMPORT_LIMITS.bytes).catch(
      () => ({ problem: 'notUtf8' }) as const,
    );
    if (latest.current !== file) return;
    setReading(false);
    if ('problem' in read) {
      setProblem(
        read.problem === 'tooLarge'
          ? t('bookmarks.import.tooLarge', {
              size: megabytes(file.size),
              limit: megabytes(BOOKMARK_IMPORT_LIMITS.bytes),
            })
          : t('bookmarks.import.notUtf8'),
      );
      return;
    }
    setChosen({ name: file.name, text: read.text });
    askPreview({ file: read.text, fileName: file.name, target });
  };

  // A file dropped on the portal is read as soon as the dialog shows.
  const chooseGiven = useEffectEvent((file: File) => void choose(file));
  useEffect(() => {
    if (given) chooseGiven(given);
  }, [given]);

  const submit = () => {
    if (!chosen || !plan) return;
    importing.mutate(
      { file: chosen.text, fileName: chosen.name, target, duplicates },
      {
        onSuccess: (result) => {
          offerUndo({
            id: result.undo.id,
            kind: 'imported',
            label: plan.targetName,
            count: result.links,
          });
          onClose();
        },
      },
    );
  };

  const failure =
    problem ??
    (preview.error
      ? (serverMessage(preview.error)?.text ?? t('bookmarks.import.previewFailed'))
      : null) ??
    (importing.error
      ? (serverMessage(importing.error)?.text ?? t('bookmarks.import.failed'))
      : null);

  const busy = reading || preview.isPending || importing.isPending;
  const links = (count: number) => t('bookmarks.import.links', { count });
  const folders = (count: number) => t('bookmarks.import.folders', { count });
  const summary = plan
    ? plan.folders > 0
      ? t('bookmarks.import.summary', {
          links: links(plan.links),
          folders: folders(plan.folders),
          levels: t('bookmarks.import.levels', { count: plan.depth }),
        })
      : t('bookmarks.import.summaryFlat', { links: links(plan.links) })
    : null;
  const status =
    reading || preview.isPending
      ? t('bookmarks.import.reading')
      : importing.isPending
        ? t('bookmarks.import.importing')
        : summary;

  const where =
    target.into === 'collection'
      ? t('bookmarks.import.intoCollection', { name: placeName })
      : target.spaceId
        ? t('bookmarks.import.intoSpace', { name: placeName })
        : t('bookmarks.import.intoMySpace');

  return (
    <Dialog
      open
      onClose={onClose}
      title={t('bookmarks.import.title')}
      className="bookmark-import"
      initialFocus={fileField}
    >
      <div className="bookmark-import__body">
        <p>
          {plan
            ? target.into === 'collection'
              ? t('bookmarks.import.existingCollection', { name: plan.targetName })
              : t('bookmarks.import.newCollection', { name: plan.targetName })
            : where}
        </p>
        <p className="hint">{t('bookmarks.import.help', { brand: config.brand })}</p>
        <label className="field">
          <span className="field__label">{t('bookmarks.import.file')}</span>
          <input
            ref={fileField}
            type="file"
            accept=".html,.htm,.csv,.json"
            disabled={importing.isPending}
            onChange={(event: ChangeEvent<HTMLInputElement>) =>
              void choose(event.target.files?.[0])
            }
          />
        </label>
        {chosen ? (
          <p className="hint">{t('bookmarks.import.chosen', { name: chosen.name })}</p>
        ) : null}
        <p role="alert" className="form-error bookmark-import__error">
          {failure}
        </p>
        <p role="status" aria-live="polite" className="bookmark-import__status">
          {status}
        </p>
        {plan ? (
          <Plan
            plan={plan}
            duplicates={duplicates}
            onDuplicates={setDuplicates}
            choiceName={choiceName}
            disabled={busy}
          />
        ) : null}
        <div className="bookmark-import__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('bookmarks.import.cancel')}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!plan || busy}
            onClick={submit}
          >
            {t('bookmarks.import.submit')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** The import as the portal opens it: the place it goes to named from the menu. */
export function BookmarkImportPanel({
  spaces,
  ...props
}: Omit<BookmarkImportDialogProps, 'placeName'> & { spaces: readonly DisplaySpace[] }) {
  return <BookmarkImportDialog {...props} placeName={importPlaceName(spaces, props.target)} />;
}

/** What the preview says: the top folders, the links there already, what is left out. */
function Plan({
  plan,
  duplicates,
  onDuplicates,
  choiceName,
  disabled,
}: {
  plan: BookmarkImportPreview;
  duplicates: 'skip' | 'keep';
  onDuplicates: (choice: 'skip' | 'keep') => void;
  choiceName: string;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const folderOf = (path: string) => path || t('bookmarks.import.top');
  const moreDuplicates = plan.duplicateCount - plan.duplicates.length;
  const moreRefused = plan.refusedCount - plan.refused.length;
  return (
    <>
      {plan.topFolders.length > 0 ? (
        <section className="bookmark-import__part" aria-labelledby={`${choiceName}-top`}>
          <h3 id={`${choiceName}-top`}>{t('bookmarks.import.topFolders')}</h3>
          <ul className="bookmark-import__list">
            {plan.topFolders.map((folder, index) => (
              <li key={`${index}:${folder.name}`}>
                {t('bookmarks.import.topFolder', {
                  name: folder.name,
                  links: t('bookmarks.import.links', { count: folder.links }),
                  folders: t('bookmarks.import.folders', { count: folder.folders }),
                })}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {plan.duplicateCount > 0 ? (
        <section className="bookmark-import__part" aria-labelledby={`${choiceName}-dup`}>
          <h3 id={`${choiceName}-dup`}>
            {t('bookmarks.import.duplicates', { count: plan.duplicateCount })}
          </h3>
          <ul className="bookmark-import__list bookmark-import__scroll">
            {plan.duplicates.map((duplicate, index) => (
              <li key={`${index}:${duplicate.url}`}>
                <bdi>{duplicate.name || duplicate.url}</bdi>{' '}
                <span className="hint">
                  {t('bookmarks.import.alreadyIn', {
                    name: duplicate.existing.name,
                    collection: duplicate.existing.collectionName,
                  })}
                </span>
              </li>
            ))}
            {moreDuplicates > 0 ? (
              <li className="hint">{t('bookmarks.import.more', { count: moreDuplicates })}</li>
            ) : null}
          </ul>
          <fieldset className="bookmark-import__choice" disabled={disabled}>
            <legend>{t('bookmarks.import.duplicatesChoice')}</legend>
            {(['skip', 'keep'] as const).map((choice) => (
              <label key={choice}>
                <input
                  type="radio"
                  name={choiceName}
                  value={choice}
                  checked={duplicates === choice}
                  onChange={() => onDuplicates(choice)}
                />
                <span>{t(`bookmarks.import.${choice}`)}</span>
              </label>
            ))}
          </fieldset>
        </section>
      ) : null}
      {plan.refusedCount > 0 ? (
        <section className="bookmark-import__part" aria-labelledby={`${choiceName}-refused`}>
          <h3 id={`${choiceName}-refused`}>
            {t('bookmarks.import.refused', { count: plan.refusedCount })}
          </h3>
          <div className="bookmark-import__scroll">
            <table className="bookmark-import__table">
              <caption>{t('bookmarks.import.refusals')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('bookmarks.import.folder')}</th>
                  <th scope="col">{t('bookmarks.import.name')}</th>
                  <th scope="col">{t('bookmarks.import.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {plan.refused.map((refusal, index) => (
                  <tr key={`${index}:${refusal.url}`}>
                    <td>
                      <bdi>{folderOf(refusal.path)}</bdi>
                    </td>
                    <td>
                      <bdi>{refusal.name}</bdi>
                      {refusal.url ? (
                        <span className="bookmark-import__url">{refusal.url}</span>
                      ) : null}
                    </td>
                    <td>{refusal.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {moreRefused > 0 ? (
              <p className="hint">{t('bookmarks.import.more', { count: moreRefused })}</p>
            ) : null}
          </div>
        </section>
      ) : null}
      {plan.notices.length > 0 ? (
        <section className="bookmark-import__part" aria-labelledby={`${choiceName}-notices`}>
          <h3 id={`${choiceName}-notices`}>{t('bookmarks.import.notices')}</h3>
          <ul className="bookmark-import__list">
            {plan.notices.map((notice, index) => (
              <li key={`${index}:${notice}`}>{notice}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
