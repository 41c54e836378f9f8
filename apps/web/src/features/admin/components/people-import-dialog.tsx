import {
  PEOPLE_IMPORT_LIMITS,
  type PeopleImportPreview,
  type PeopleImportResult,
} from '@signpost/contract';
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { usePeopleImport, usePeopleImportPreview } from '../api/people';
import { problemOf } from './people-dialogs';
import { readTextFile } from '../../../lib/read-text-file';

interface Props {
  onClose: () => void;
  /** What the import did, to show in the list. */
  onDone: (message: string) => void;
}

/**
 * People from a CSV file (decision 0085): the file is read in the browser, the server says
 * what it would create, change and refuse (each refusal with its row), then one import.
 */
export function PeopleImportDialog({ onClose, onDone }: Props) {
  const { t } = useTranslation('admin');
  const [csv, setCsv] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [send, setSend] = useState(true);
  const preview = usePeopleImportPreview();
  const importing = usePeopleImport();
  const [result, setResult] = useState<PeopleImportResult | null>(null);
  const plan: PeopleImportPreview | undefined = preview.data;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    preview.reset();
    importing.reset();
    setCsv(null);
    setProblem(null);
    if (!file) return;
    const read = await readTextFile(file, PEOPLE_IMPORT_LIMITS.bytes);
    if ('problem' in read) {
      setProblem(t(`people.import.${read.problem}`));
      return;
    }
    setCsv(read.text);
    preview.mutate({ csv: read.text });
  };

  const count = plan ? plan.create + plan.change : 0;
  const submit = () => {
    if (!csv || !plan) return;
    importing.mutate(
      { csv, sendInvitations: plan.mailEnabled && send },
      {
        onSuccess: (done) => {
          setResult(done);
          onDone(
            [
              t('people.import.done', {
                created: done.created,
                changed: done.changed,
                unchanged: done.unchanged,
                refused: done.refused.length,
              }),
              done.invitationsMailed > 0
                ? t('people.import.mailed', { count: done.invitationsMailed })
                : '',
            ]
              .filter(Boolean)
              .join(' '),
          );
        },
      },
    );
  };

  const failure =
    problem ??
    (preview.error ? problemOf(preview.error) : null) ??
    (importing.error ? t('people.import.failed', { reason: problemOf(importing.error) }) : null);

  return (
    <Dialog open onClose={onClose} title={t('people.import.title')}>
      <div className="people-form people-import">
        <p>{t('people.import.help')}</p>
        <label className="field">
          <span className="field__label">{t('people.import.file')}</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => void choose(e)} />
        </label>
        <div role="alert" className="people-form__error">
          {failure}
        </div>
        {preview.isPending ? <p role="status">{t('people.import.reading')}</p> : null}
        {result ? (
          <p role="status">
            {t('people.import.done', {
              created: result.created,
              changed: result.changed,
              unchanged: result.unchanged,
              refused: result.refused.length,
            })}
            {result.invitationsMailed > 0
              ? ` ${t('people.import.mailed', { count: result.invitationsMailed })}`
              : ''}
          </p>
        ) : plan ? (
          <>
            <ul className="people-import__counts" aria-label={t('people.import.title')}>
              <li>{t('people.import.create', { count: plan.create })}</li>
              <li>{t('people.import.change', { count: plan.change })}</li>
              <li>{t('people.import.unchanged', { count: plan.unchanged })}</li>
              <li>{t('people.import.refused', { count: plan.refused.length })}</li>
            </ul>
            {plan.refused.length > 0 ? (
              <table className="people-import__table">
                <caption>{t('people.import.refusals')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('people.import.row')}</th>
                    <th scope="col">{t('people.import.email')}</th>
                    <th scope="col">{t('people.import.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {plan.refused.map((refusal) => (
                    <tr key={refusal.row}>
                      <td>{refusal.row}</td>
                      <td>{refusal.email}</td>
                      <td>{refusal.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {plan.rows.length > 0 ? (
              <table className="people-import__table">
                <caption>{t('people.import.firstRows')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('people.import.row')}</th>
                    <th scope="col">{t('people.import.action')}</th>
                    <th scope="col">{t('people.form.name')}</th>
                    <th scope="col">{t('people.import.email')}</th>
                    <th scope="col">{t('people.form.role')}</th>
                    <th scope="col">{t('people.import.teamsAdded')}</th>
                  </tr>
                </thead>
                <tbody>
                  {plan.rows.map((row) => (
                    <tr key={row.row}>
                      <td>{row.row}</td>
                      <td>{t(`people.import.actions.${row.action}`)}</td>
                      <td>{row.name}</td>
                      <td>{row.email}</td>
                      <td>{t(`people.roles.${row.role}`)}</td>
                      <td>{row.teamsAdded.join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {plan.changesRoles ? <p>{t('people.import.rolesNote')}</p> : null}
            {plan.create > 0 ? (
              plan.mailEnabled ? (
                <label className="field field--check">
                  <input
                    type="checkbox"
                    checked={send}
                    onChange={(e) => setSend(e.target.checked)}
                  />
                  <span>{t('people.import.sendInvitations')}</span>
                </label>
              ) : (
                <p>{t('people.import.noMail')}</p>
              )
            ) : null}
          </>
        ) : null}
        <div className="people-form__actions">
          <button type="button" className="button" onClick={onClose}>
            {result ? t('people.import.close') : t('people.import.cancel')}
          </button>
          {plan && !result ? (
            <button
              type="button"
              className="button button--primary"
              disabled={count === 0 || importing.isPending}
              onClick={submit}
            >
              {count === 0 ? t('people.import.nothing') : t('people.import.submit', { count })}
            </button>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
