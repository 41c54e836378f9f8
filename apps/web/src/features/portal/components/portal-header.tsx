import { useTranslation } from 'react-i18next';
import { SearchIcon } from '../../../components/icons';
import { config } from '../../../lib/config';

/** The header: product name and the search icon. */
export function PortalHeader({ onSearch }: { onSearch: () => void }) {
  const { t } = useTranslation();
  return (
    <header className="portal-header">
      <span className="portal-header__brand">{config.brand}</span>
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
    </header>
  );
}
