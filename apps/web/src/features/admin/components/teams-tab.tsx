import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useTeams, useTeamWrites } from '../api/teams';
import { openConsoleView } from '../console-address';
import { ConsoleLink } from './console-link';
import { failureOf } from './failure-of';
import { TeamsDetail } from './teams-detail';

interface Props {
  /** The team the address names (`/console/teams/<id>`), managed instead of the list. */
  openId?: string | null;
  /** Its space (`/console/teams/<id>/space`). */
  space?: boolean;
  /** A message carried over from the view before (a team deleted). */
  notice?: string | null;
  onNotice?: (notice: string | null) => void;
  /** The team's space as the portal shows it, composed by the app. */
  teamSpace?: (teamId: string) => ReactNode;
}

/** The console's teams tab: the teams by name, searched; create; open one to manage it. */
export function TeamsTab({
  openId = null,
  space = false,
  notice: carried = null,
  onNotice,
  teamSpace,
}: Props) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), 250);
  const teams = useTeams(query);
  const { create } = useTeamWrites();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const notice = created ?? carried;
  const setNotice = (message: string | null) => {
    setCreated(message);
    onNotice?.(null);
  };

  if (openId && space) {
    return (
      <div className="admin-team-space">
        <button
          type="button"
          className="link-button"
          onClick={() => openConsoleView({ section: 'teams', id: openId })}
        >
          {t('teams.backToTeam')}
        </button>
        <p className="hint">{t('teams.spaceHint')}</p>
        {teamSpace?.(openId) ?? null}
      </div>
    );
  }
  if (openId) {
    return (
      <TeamsDetail
        id={openId}
        onBack={(message) => {
          onNotice?.(message ?? null);
          openConsoleView({ section: 'teams' });
        }}
        onOpenSpace={() => openConsoleView({ section: 'teams', id: openId, space: true })}
      />
    );
  }

  async function onCreate(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const team = await create.mutateAsync(name);
      setName('');
      setNotice(t('teams.created', { name: team.name }));
    } catch (failure) {
      setError(failureOf(failure, t('teams.failed')));
    }
  }

  const items = teams.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="admin-teams">
      <h2 className="admin-tab__title">{t('teams.title')}</h2>
      <form className="admin-row" onSubmit={(event) => void onCreate(event)}>
        <label className="admin-field">
          <span>{t('teams.newName')}</span>
          <input value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {t('teams.create')}
        </button>
      </form>
      <p role="alert" className="form-error">
        {error}
      </p>
      <p role="status" className="hint">
        {notice}
      </p>
      <label className="admin-field">
        <span>{t('teams.search')}</span>
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      {teams.isPending ? <p className="hint">{t('console.loading')}</p> : null}
      {teams.isError ? <p className="form-error">{t('console.loadFailed')}</p> : null}
      {teams.isSuccess && items.length === 0 ? (
        <p className="hint">{query ? t('teams.noMatch') : t('teams.none')}</p>
      ) : null}
      <ul className="admin-list" aria-label={t('teams.title')}>
        {items.map((team) => (
          <li key={team.id} className="admin-list__row">
            <ConsoleLink
              view={{ section: 'teams', id: team.id }}
              label={t('teams.open', { name: team.name })}
              className="link-button"
            >
              {team.name}
            </ConsoleLink>
            <span className="hint">
              {t('teams.memberCount', { count: team.memberCount })} ·{' '}
              {t('teams.editorCount', { count: team.editorCount })}
              {team.buddy ? ` · ${t('teams.buddy')}: ${team.buddy.name}` : ''}
            </span>
          </li>
        ))}
      </ul>
      {teams.hasNextPage ? (
        <button type="button" className="button" onClick={() => void teams.fetchNextPage()}>
          {t('teams.more')}
        </button>
      ) : null}
    </div>
  );
}
