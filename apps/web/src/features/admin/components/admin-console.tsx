import { useEffect, useId, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/i18n';
import { usePathname } from '../../../lib/page-address';
import { adminEn } from '../../../lib/locales/admin';
import { useBrokenLinks } from '../api/broken-links';
import {
  closeConsole,
  consolePath,
  openConsoleView,
  parseConsolePath,
  replaceConsoleView,
  type ConsoleSection,
  type ConsoleView,
} from '../console-address';
import { AuditTab } from './audit-tab';
import { BrokenLinksTab } from './broken-links-tab';
import { PersonDetail } from './people-detail';
import { PeopleTab } from './people-tab';
import { SettingsTab } from './settings-tab';
import { SuggestionsTab } from './suggestions-tab';
import { TeamsTab } from './teams-tab';
import '../admin.css';

registerTexts('admin', adminEn);

/** What a section shows for the view, and the messages carried from one view to the next. */
interface SectionContext {
  view: ConsoleView;
  admin: boolean;
  notice: string | null;
  setNotice: (notice: string | null) => void;
  teamSpace?: (teamId: string) => ReactNode;
}

/** Each section, its texts' key, and whether a team editor (not an administrator) sees it. */
const SECTIONS: {
  key: ConsoleSection;
  texts: 'people' | 'teams' | 'suggestions' | 'brokenLinks' | 'settings' | 'audit';
  editors: boolean;
  render: (context: SectionContext) => ReactNode;
}[] = [
  {
    key: 'people',
    texts: 'people',
    editors: false,
    render: ({ view }) => (view.id ? <PersonDetail id={view.id} /> : <PeopleTab />),
  },
  {
    key: 'teams',
    texts: 'teams',
    editors: false,
    render: ({ view, notice, setNotice, teamSpace }) => (
      <TeamsTab
        openId={view.id}
        space={view.space}
        notice={notice}
        onNotice={setNotice}
        teamSpace={teamSpace}
      />
    ),
  },
  { key: 'suggestions', texts: 'suggestions', editors: true, render: () => <SuggestionsTab /> },
  {
    key: 'broken-links',
    texts: 'brokenLinks',
    editors: true,
    render: ({ admin }) => <BrokenLinksTab admin={admin} />,
  },
  { key: 'organization', texts: 'settings', editors: false, render: () => <SettingsTab /> },
  { key: 'audit', texts: 'audit', editors: false, render: () => <AuditTab /> },
];

interface Props {
  /** An administrator sees every section; a team editor only what concerns their teams. */
  admin: boolean;
  /** The view to show; by default the one the address names (console-address.ts). */
  view?: ConsoleView;
  /** A team's space, shown at `/console/teams/<id>/space`; composed by the app. */
  teamSpace?: (teamId: string) => ReactNode;
}

/** A plain click on a link of the console: followed in the page, not by loading it again. */
const followed = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * The administration console, a page of its own (decision 0077): people, teams, suggestions,
 * broken links, the organization's settings and the audit log, one address each. It loads
 * only when opened (app/lazy-panels.ts).
 */
export function AdminConsole({ admin, view: given, teamSpace }: Props) {
  const { t } = useTranslation('admin');
  const pathname = usePathname();
  const addressed = parseConsolePath(pathname);
  const view = given ?? addressed ?? { section: null, id: null, space: false };
  const titleId = useId();
  // The broken links are asked for as the console opens: a 403 (someone who runs nothing the
  // server lists broken links of) takes the section away rather than showing a refusal.
  const broken = useBrokenLinks();
  const refused = broken.error instanceof ApiError && broken.error.status === 403;
  const sections = SECTIONS.filter(
    (section) => (admin || section.editors) && !(section.key === 'broken-links' && refused),
  );
  const active = sections.find((section) => section.key === view.section) ?? sections[0];
  // A message that outlives its view: a team deleted, said on the list of teams.
  const [notice, setNotice] = useState<string | null>(null);

  // `/console`, or a section this person does not see: the address becomes the one shown.
  const shownKey = active?.key ?? null;
  // Only while the address is the console's: on the way out, it is the portal's to say.
  const mismatch = shownKey !== null && shownKey !== view.section && addressed !== null;
  useEffect(() => {
    if (mismatch) replaceConsoleView({ section: shownKey });
  }, [mismatch, shownKey]);

  // A new view is announced as a page is: focus moves to its content (not on the first one,
  // where the browser starts at the top of the page).
  const content = useRef<HTMLDivElement>(null);
  const viewKey = `${view.section ?? ''}/${view.id ?? ''}/${String(view.space)}`;
  const firstView = useRef(viewKey);
  useEffect(() => {
    if (viewKey !== firstView.current) content.current?.focus();
  }, [viewKey]);

  // The browser's tab and history name the section; the portal's title comes back after.
  const sectionTitle = active ? t(`${active.texts}.title`) : null;
  useEffect(() => {
    const before = document.title;
    document.title = sectionTitle ? `${sectionTitle} · ${t('console.title')}` : t('console.title');
    return () => {
      document.title = before;
    };
  }, [sectionTitle, t]);

  return (
    <div className="console-page">
      <header className="console-page__header">
        <h1 id={titleId} className="console-page__title">
          {t('console.title')}
        </h1>
        <button type="button" className="button" onClick={closeConsole}>
          {t('console.close')}
        </button>
      </header>
      <main className="console-page__main" aria-labelledby={titleId}>
        <nav aria-label={t('console.tabs')}>
          <ul className="admin-tabs">
            {sections.map((section) => (
              <li key={section.key}>
                <a
                  className="admin-tabs__tab"
                  href={consolePath({ section: section.key })}
                  aria-current={section.key === active?.key ? 'page' : undefined}
                  onClick={(event) => {
                    if (!followed(event)) return;
                    event.preventDefault();
                    setNotice(null);
                    if (section.key !== view.section || view.id) {
                      openConsoleView({ section: section.key });
                    }
                  }}
                >
                  {t(`${section.texts}.title`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="admin-tab" ref={content} tabIndex={-1}>
          {active?.render({
            view: mismatch ? { section: active.key, id: null, space: false } : view,
            admin,
            notice,
            setNotice,
            teamSpace,
          })}
        </div>
      </main>
    </div>
  );
}
