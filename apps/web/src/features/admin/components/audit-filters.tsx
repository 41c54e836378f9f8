import { AUDIT_ACTION_GROUPS } from '@signpost/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditFilters } from '../api/audit';
import { groupKey } from './audit-words';

interface Props {
  filters: AuditFilters;
  onChange: (next: AuditFilters) => void;
}

/** The audit log's filters: words, action group, dates, and the person picked in the table. */
export function AuditFiltersBar({ filters, onChange }: Props) {
  const { t } = useTranslation('admin');
  const id = useId();
  const set = (patch: Partial<AuditFilters>) => onChange({ ...filters, ...patch });
  return (
    <div className="audit-filters" role="group" aria-label={t('audit.filters.label')}>
      <label className="audit-filters__field audit-filters__field--wide" htmlFor={`${id}-q`}>
        <span>{t('audit.filters.search')}</span>
        <input
          id={`${id}-q`}
          type="search"
          maxLength={200}
          value={filters.q ?? ''}
          onChange={(event) => set({ q: event.target.value })}
        />
      </label>
      <label className="audit-filters__field" htmlFor={`${id}-group`}>
        <span>{t('audit.filters.group')}</span>
        <select
          id={`${id}-group`}
          value={filters.group ?? ''}
          onChange={(event) => set({ group: event.target.value })}
        >
          <option value="">{t('audit.filters.allGroups')}</option>
          {AUDIT_ACTION_GROUPS.map((group) => (
            <option key={group} value={group}>
              {t(`audit.groups.${groupKey(group)}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="audit-filters__field" htmlFor={`${id}-from`}>
        <span>{t('audit.filters.from')}</span>
        <input
          id={`${id}-from`}
          type="date"
          value={filters.from ?? ''}
          max={filters.to || undefined}
          onChange={(event) => set({ from: event.target.value })}
        />
      </label>
      <label className="audit-filters__field" htmlFor={`${id}-to`}>
        <span>{t('audit.filters.to')}</span>
        <input
          id={`${id}-to`}
          type="date"
          value={filters.to ?? ''}
          min={filters.from || undefined}
          onChange={(event) => set({ to: event.target.value })}
        />
      </label>
      {filters.person ? (
        <p className="audit-filters__person">
          {t('audit.filters.person', { person: filters.person.label })}{' '}
          <button type="button" className="button" onClick={() => set({ person: null })}>
            {t('audit.filters.clearPerson')}
          </button>
        </p>
      ) : null}
    </div>
  );
}
