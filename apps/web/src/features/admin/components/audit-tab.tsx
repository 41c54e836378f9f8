import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { downloadAuditCsv, useAuditLog, type AuditFilters } from '../api/audit';
import { AuditFiltersBar } from './audit-filters';
import { AuditTable } from './audit-table';

const SEARCH_DEBOUNCE_MS = 300;

/** The console's audit tab: the organization's audit log, filtered, paged and exported. */
export function AuditTab() {
  const { t } = useTranslation('admin');
  const [filters, setFilters] = useState<AuditFilters>({});
  const q = useDebouncedValue(filters.q ?? '', SEARCH_DEBOUNCE_MS);
  const applied = { ...filters, q };
  const log = useAuditLog(applied);
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];

  const exportCsv = async () => {
    setExporting(true);
    setExportFailed(false);
    try {
      await downloadAuditCsv(applied);
    } catch {
      setExportFailed(true);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="audit-tab">
      <div className="audit-tab__head">
        <h2 className="admin-tab__title">{t('audit.title')}</h2>
        <button
          type="button"
          className="button"
          onClick={() => void exportCsv()}
          disabled={exporting}
        >
          {exporting ? t('audit.exporting') : t('audit.export')}
        </button>
      </div>
      <p className="audit-tab__intro">{t('audit.intro')}</p>
      {exportFailed ? <p role="alert">{t('audit.exportFailed')}</p> : null}
      <AuditFiltersBar filters={filters} onChange={setFilters} />
      {log.isPending ? (
        <p>{t('console.loading')}</p>
      ) : log.isError ? (
        <p role="alert">
          {t('console.loadFailed')}{' '}
          <button type="button" className="button" onClick={() => void log.refetch()}>
            {t('console.retry')}
          </button>
        </p>
      ) : entries.length === 0 ? (
        <p>{t('audit.empty')}</p>
      ) : (
        <>
          <AuditTable entries={entries} onPerson={(person) => setFilters({ ...filters, person })} />
          {log.hasNextPage ? (
            <button
              type="button"
              className="button audit-tab__more"
              onClick={() => void log.fetchNextPage()}
              disabled={log.isFetchingNextPage}
            >
              {log.isFetchingNextPage ? t('audit.loadingMore') : t('audit.loadMore')}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
