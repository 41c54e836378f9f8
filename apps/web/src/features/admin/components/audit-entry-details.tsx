import type { AuditEntry } from '@signpost/contract';
import { useTranslation } from 'react-i18next';

const show = (value: unknown) =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** The before and after values of an entry, field by field, and whatever else it noted. */
export function AuditEntryDetails({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const fields = [
    ...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]),
  ];
  const details = Object.entries(entry.details ?? {});
  return (
    <div className="audit-details">
      {fields.length > 0 ? (
        <table className="audit-details__changes">
          <thead>
            <tr>
              <th scope="col"></th>
              <th scope="col">{t('audit.before')}</th>
              <th scope="col">{t('audit.after')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((field) => (
              <tr key={field}>
                <th scope="row">{field}</th>
                <td>{show(entry.before?.[field])}</td>
                <td>{show(entry.after?.[field])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>{t('audit.noChanges')}</p>
      )}
      <dl className="audit-details__more">
        {details.map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{show(value)}</dd>
          </div>
        ))}
        {entry.userAgent ? (
          <div>
            <dt>{t('audit.browser')}</dt>
            <dd>{entry.userAgent}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}
