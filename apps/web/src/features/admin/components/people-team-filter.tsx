import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useTeams } from '../api/teams';

interface Props {
  /** The chosen team's id, or '' for any. */
  value: string;
  /** The team chosen, with its name ('' for none). */
  onChange: (id: string, name: string) => void;
  /** The choice's label and the text of no choice: the filter's by default. */
  label?: string;
  noneLabel?: string;
}

/**
 * The people list's team filter, for any number of teams: the teams are searched by name on
 * the server and listed a page at a time; the chosen team stays offered whatever the search.
 */
export function PeopleTeamFilter({ value, onChange, label, noneLabel }: Props) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), 250);
  const teams = useTeams(query);
  const items = teams.data?.pages.flatMap((page) => page.items) ?? [];
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(null);
  const kept = chosen && chosen.id === value && !items.some((team) => team.id === value);

  function choose(id: string) {
    const team = items.find((candidate) => candidate.id === id);
    setChosen(team ? { id: team.id, name: team.name } : null);
    onChange(id, team?.name ?? '');
  }

  return (
    <div className="people-filter people-team-filter">
      <label className="field">
        <span className="field__label">{t('people.teamSearch')}</span>
        <input
          type="search"
          value={search}
          maxLength={200}
          placeholder={t('people.teamSearchPlaceholder')}
          onChange={(e) => setSearch(e.target.value)}
        />
      </label>
      <label className="field">
        <span className="field__label">{label ?? t('people.team')}</span>
        <select value={value} onChange={(e) => choose(e.target.value)}>
          <option value="">{noneLabel ?? t('people.any')}</option>
          {kept ? <option value={chosen.id}>{chosen.name}</option> : null}
          {items.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </label>
      {teams.isSuccess && items.length === 0 && query ? (
        <span className="hint">{t('people.noTeamMatch')}</span>
      ) : null}
      {teams.hasNextPage ? (
        <button
          type="button"
          className="button"
          disabled={teams.isFetchingNextPage}
          onClick={() => void teams.fetchNextPage()}
        >
          {t('people.moreTeams')}
        </button>
      ) : null}
    </div>
  );
}
