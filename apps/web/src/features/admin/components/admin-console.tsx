import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { ApiError } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/i18n';
import { adminEn } from '../../../lib/locales/admin';
import { useBrokenLinks } from '../api/broken-links';
import { AuditTab } from './audit-tab';
import { BrokenLinksTab } from './broken-links-tab';
import { PeopleTab } from './people-tab';
import { SettingsTab } from './settings-tab';
import { SuggestionsTab } from './suggestions-tab';
import { TeamsTab } from './teams-tab';
import '../admin.css';

registerTexts('admin', adminEn);

export type AdminTabKey = 'people' | 'teams' | 'suggestions' | 'brokenLinks' | 'settings' | 'audit';

/** Each tab, and whether a team editor (not an administrator) sees it. */
const TABS: { key: AdminTabKey; editors: boolean; render: () => ReactNode }[] = [
  { key: 'people', editors: false, render: () => <PeopleTab /> },
  { key: 'teams', editors: false, render: () => <TeamsTab /> },
  { key: 'suggestions', editors: true, render: () => <SuggestionsTab /> },
  { key: 'brokenLinks', editors: true, render: () => <BrokenLinksTab /> },
  { key: 'settings', editors: false, render: () => <SettingsTab /> },
  { key: 'audit', editors: false, render: () => <AuditTab /> },
];

interface Props {
  /** An administrator sees every tab; a team editor only what concerns their teams. */
  admin: boolean;
  onClose: () => void;
  /** The tab to open on; the first one the person may see by default. */
  initialTab?: AdminTabKey;
}

/**
 * The administration console: people, teams, suggestions, broken links, organization settings
 * and the audit log, as tabs of one wide panel. It loads only when opened (app/lazy-panels.ts).
 */
export function AdminConsole({ admin, onClose, initialTab }: Props) {
  const { t } = useTranslation('admin');
  // The broken links are asked for as the console opens: a 403 (someone who runs nothing the
  // server lists broken links of) takes the tab away rather than showing a refusal.
  const broken = useBrokenLinks();
  const refused = broken.error instanceof ApiError && broken.error.status === 403;
  const tabs = TABS.filter(
    (tab) => (admin || tab.editors) && !(tab.key === 'brokenLinks' && refused),
  );
  const [current, setCurrent] = useState<AdminTabKey>(
    tabs.find((tab) => tab.key === initialTab)?.key ?? tabs[0]?.key ?? 'suggestions',
  );
  const baseId = useId();
  const active = tabs.find((tab) => tab.key === current) ?? tabs[0];

  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (!next) return;
    setCurrent(next.key);
    document.getElementById(`${baseId}-tab-${next.key}`)?.focus();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={t('console.title')}
      variant="sheet"
      className="admin-console"
    >
      <div role="tablist" aria-label={t('console.tabs')} className="admin-tabs">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            id={`${baseId}-tab-${tab.key}`}
            type="button"
            role="tab"
            className="admin-tabs__tab"
            aria-selected={tab.key === active?.key}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab.key === active?.key ? 0 : -1}
            onClick={() => setCurrent(tab.key)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {t(`${tab.key}.title`)}
          </button>
        ))}
      </div>
      <div
        id={`${baseId}-panel`}
        role="tabpanel"
        aria-labelledby={active ? `${baseId}-tab-${active.key}` : undefined}
        className="admin-tab"
      >
        {active?.render()}
      </div>
    </Dialog>
  );
}
