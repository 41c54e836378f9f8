import type { AuditEntry } from '@signpost/contract';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditFilters } from '../api/audit';
import { AuditEntryDetails } from './audit-entry-details';
import { actionWords, actorLabel } from './audit-words';

interface Props {
  entries: AuditEntry[];
  onPerson: (person: NonNullable<AuditFilters['person']>) => void;
}

const when = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(
    new Date(iso),
  );

/** The entries: when, who, what, to whom or what, from where, and their details on demand. */
export function AuditTable({ entries, onPerson }: Props) {
  const { t, i18n } = useTranslation('admin');
  const [open, setOpen] = useState<string | null>(null);

  const person = (id: string | null, label: string | null) =>
    id && label ? (
      <button
        type="button"
        className="audit-table__person"
        title={t('audit.filters.byPerson', { person: label })}
        onClick={() => onPerson({ id, label })}
      >
        {label}
      </button>
    ) : (
      label
    );

  return (
    <table className="audit-table">
      <thead>
        <tr>
          <th scope="col">{t('audit.columns.when')}</th>
          <th scope="col">{t('audit.columns.who')}</th>
          <th scope="col">{t('audit.columns.action')}</th>
          <th scope="col">{t('audit.columns.target')}</th>
          <th scope="col">{t('audit.columns.address')}</th>
          <th scope="col">
            <span className="visually-hidden">{t('audit.columns.details')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => {
          const expanded = open === entry.id;
          const target = entry.target;
          return (
            <Fragment key={entry.id}>
              <tr>
                <td data-label={t('audit.columns.when')}>
                  <time dateTime={entry.occurredAt}>{when(entry.occurredAt, i18n.language)}</time>
                </td>
                <td data-label={t('audit.columns.who')}>
                  {entry.actor ? person(entry.actor.id, actorLabel(entry)) : t('audit.system')}
                  {entry.details?.asAdministrator === true ? (
                    <span className="audit-table__as-admin"> {t('audit.asAdministrator')}</span>
                  ) : null}
                </td>
                <td data-label={t('audit.columns.action')}>{actionWords(t, entry.action)}</td>
                <td data-label={t('audit.columns.target')}>
                  {target
                    ? target.type === 'person'
                      ? person(target.id, target.label ?? target.id)
                      : (target.label ?? target.id)
                    : null}
                </td>
                <td data-label={t('audit.columns.address')}>{entry.ip}</td>
                <td>
                  <button
                    type="button"
                    className="button"
                    aria-expanded={expanded}
                    aria-controls={`audit-${entry.id}`}
                    onClick={() => setOpen(expanded ? null : entry.id)}
                  >
                    {expanded ? t('audit.hideDetails') : t('audit.showDetails')}
                  </button>
                </td>
              </tr>
              {expanded ? (
                <tr id={`audit-${entry.id}`} className="audit-table__details">
                  <td colSpan={6}>
                    <AuditEntryDetails entry={entry} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
