import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchIcon } from '../../../components/icons';
import { config } from '../../../lib/config';

/** The header: product name, what the portal adds beside the search (`actions`), the search icon. */
export function PortalHeader({
  onSearch,
  actions,
}: {
  onSearch: () => void;
  /** Shown before the search icon: the links that need attention (decision 0069). */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <header className="portal-header">
      <span className="portal-header__brand">{config.brand}</span>
      <div className="portal-header__actions">
        {actions}
        <button
          type="button"
          className="icon-button"
          onClick={onSearch}
          aria-label={t('portal.search')}
          aria-keyshortcuts="/ Control+K"
          title={`${t('portal.search')} (/)`}
        >
          <SearchIcon />
        </button>
      </div>
    </header>
  );
}
