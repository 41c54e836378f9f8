import type { Person, ShareTeam } from '@signpost/contract';
import { useCallback, useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { CheckIcon, CloseIcon } from '../../../components/icons';
import { PEERS_SCROLL_THRESHOLD_PX, PEERS_SEARCH_DEBOUNCE_MS } from '../../../lib/constants';
import { serverMessage } from '../../../lib/server-message';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useAddMembers } from '../api/add-members';
import { usePeerPages } from '../hooks/use-peer-pages';
import '../../../lib/panel-texts';

export interface MembersPanelProps {
  /** The collection to share, or whose share (shareId) gets the people. */
  collection: {
    id: string;
    name: string;
    shareId?: string | null;
    members?: Person[];
    /** The teams it is shared with already. */
    teams?: ShareTeam[];
  };
  /** The teams the person may share with: the ones they are in (decision 0086). */
  teams?: ShareTeam[];
  onClose: () => void;
}

function nearBottom(element: HTMLElement) {
  return (
    element.scrollHeight - element.scrollTop - element.clientHeight <= PEERS_SCROLL_THRESHOLD_PX
  );
}

/**
 * The add-members panel (spec §2, §4, §5): people search debounced PEERS_SEARCH_DEBOUNCE_MS,
 * the selection as removable chips, an infinite list of people that loads the next page
 * within PEERS_SCROLL_THRESHOLD_PX of the bottom. Members are shown checked and cannot be
 * selected; nobody is selected twice.
 */
export function MembersPanel({ collection, teams = [], onClose }: MembersPanelProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const query = useDebouncedValue(input.trim(), PEERS_SEARCH_DEBOUNCE_MS);
  const { people, done, loading, loadMore } = usePeerPages(query);
  const [selected, setSelected] = useState<Person[]>([]);
  const selectedIds = useMemo(() => new Set(selected.map((person) => person.id)), [selected]);
  const [selectedTeams, setSelectedTeams] = useState<string[]>([]);
  const sharedTeams = useMemo(
    () => new Set((collection.teams ?? []).map((team) => team.id)),
    [collection.teams],
  );
  const addMembers = useAddMembers();
  const listRef = useRef<HTMLDivElement>(null);
  // Read for every row of a list that grows as it scrolls: built once, not per keystroke.
  const memberIds = useMemo(
    () => new Set((collection.members ?? []).map((member) => member.id)),
    [collection.members],
  );

  const select = useCallback((person: Person) => {
    setSelected((current) =>
      current.some((chosen) => chosen.id === person.id) ? current : [...current, person],
    );
  }, []);
  const unselect = useCallback((id: string) => {
    setSelected((current) => current.filter((chosen) => chosen.id !== id));
  }, []);

  // A list shorter than its box cannot be scrolled: keep loading until it fills the box.
  useEffect(() => {
    const list = listRef.current;
    if (list && list.clientHeight > 0 && !loading && !done && nearBottom(list)) loadMore();
  }, [people, loading, done, loadMore]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    if (nearBottom(event.currentTarget)) loadMore();
  };

  const saving = addMembers.isPending;
  const nothingChosen = selected.length === 0 && selectedTeams.length === 0;
  const submit = async () => {
    if (nothingChosen || saving) return;
    const memberIds = selected.map((person) => person.id);
    if (await addMembers.write({ collection, memberIds, teamIds: selectedTeams })) onClose();
  };

  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      className="members-panel"
      title={t('members.title', { name: collection.name })}
      footer={
        <>
          {addMembers.isError ? (
            <p className="form-error" role="alert">
              {serverMessage(addMembers.error, {
                memberIds: t('members.selected'),
                teamIds: t('members.teams'),
              })?.text ?? t('write.failed')}
            </p>
          ) : null}
          <button
            type="button"
            className="button button--primary"
            disabled={nothingChosen || saving}
            aria-busy={saving}
            onClick={() => void submit()}
          >
            {t('members.add')}
          </button>
        </>
      }
    >
      {teams.length > 0 ? (
        <fieldset className="share-teams">
          <legend>{t('members.teams')}</legend>
          <p className="hint">{t('members.teamsHint')}</p>
          <ul>
            {teams.map((team) => {
              const shared = sharedTeams.has(team.id);
              return (
                <li key={team.id}>
                  <label className={`person${shared ? ' person--member' : ''}`}>
                    <input
                      type="checkbox"
                      checked={shared || selectedTeams.includes(team.id)}
                      disabled={shared}
                      onChange={(event) =>
                        setSelectedTeams((current) =>
                          event.target.checked
                            ? [...current, team.id]
                            : current.filter((id) => id !== team.id),
                        )
                      }
                    />
                    <span className="person__name">{team.name}</span>
                    {shared ? (
                      <span className="person__member">
                        <CheckIcon />
                        {t('members.alreadyShared')}
                      </span>
                    ) : null}
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}
      <label className="field">
        <span>{t('members.search')}</span>
        <input
          type="search"
          autoComplete="off"
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
      </label>
      {selected.length > 0 ? (
        <ul className="chips" aria-label={t('members.selected')}>
          {selected.map((person) => (
            <li key={person.id} className="chip">
              <span>{person.name}</span>
              <button
                type="button"
                className="chip__remove"
                aria-label={t('members.remove', { name: person.name })}
                onClick={() => unselect(person.id)}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div
        ref={listRef}
        className="people-list"
        onScroll={onScroll}
        role="group"
        aria-label={t('members.people')}
        aria-busy={loading}
      >
        <ul>
          {people.map((person) => {
            const member = memberIds.has(person.id);
            const chosen = member || selectedIds.has(person.id);
            return (
              <li key={person.id}>
                <label className={`person${member ? ' person--member' : ''}`}>
                  <input
                    type="checkbox"
                    checked={chosen}
                    disabled={member}
                    onChange={(event) =>
                      event.target.checked ? select(person) : unselect(person.id)
                    }
                  />
                  <span className="person__name">{person.name}</span>
                  <span className="person__email">{person.email}</span>
                  {member ? (
                    <span className="person__member">
                      <CheckIcon />
                      {t('members.alreadyMember')}
                    </span>
                  ) : null}
                </label>
              </li>
            );
          })}
        </ul>
        {loading ? <p className="hint">{t('members.loadingMore')}</p> : null}
        {!loading && done && people.length === 0 ? (
          <p className="hint">{t('members.noPeople')}</p>
        ) : null}
      </div>
    </Dialog>
  );
}
