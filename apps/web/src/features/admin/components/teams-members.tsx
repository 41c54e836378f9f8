import type { MembershipSource, TeamDetail, TeamMember } from '@signpost/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useCandidates, useTeamMembers, useTeamWrites, type Candidate } from '../api/teams';
import { failureOf } from './failure-of';

interface Props {
  team: TeamDetail;
  onBuddy: (buddyId: string | null) => void;
  onMessage: (message: string, failed: boolean) => void;
}

/** A membership that the identity system holds too: a sync may make it again after a removal. */
const synced = (member: TeamMember) => member.sources.some((source) => source !== 'console');

/**
 * Where a membership came from (decision 0084), as small badges: nothing for one made only
 * by hand in the console, the usual case, so that the list stays calm.
 */
function MembershipSources({ sources }: { sources: MembershipSource[] }) {
  const { t } = useTranslation('admin');
  if (sources.every((source) => source === 'console')) return null;
  return (
    <span className="admin-sources">
      {sources.map((source) => (
        <span key={source} className="admin-source" title={t(`teams.sourceAddedBy.${source}`)}>
          <span aria-hidden="true">{t(`teams.source.${source}`)}</span>
          <span className="visually-hidden">{t(`teams.sourceAddedBy.${source}`)}</span>
        </span>
      ))}
    </span>
  );
}

/**
 * A team's members: search, select and remove, editor toggle, buddy, and adding people.
 * Removing a membership the identity system holds asks first: its next sync may add it again.
 */
export function TeamsMembers({ team, onBuddy, onMessage }: Props) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), 250);
  const members = useTeamMembers(team.id, query);
  const writes = useTeamWrites();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const items = members.data?.pages.flatMap((page) => page.items) ?? [];
  const selectedSynced = items.some((member) => selected.has(member.id) && synced(member));
  // Focus follows the question, to its safe answer.
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  function toggle(id: string) {
    // A changed selection is a new question: it is asked again at the next removal.
    setConfirming(false);
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function act(work: () => Promise<string>) {
    try {
      onMessage(await work(), false);
      return true;
    } catch (failure) {
      onMessage(failureOf(failure, t('teams.failed')), true);
      return false;
    }
  }

  const removeSelected = () =>
    act(async () => {
      setConfirming(false);
      const { changed } = await writes.removeMembers.mutateAsync({
        id: team.id,
        userIds: [...selected],
      });
      setSelected(new Set());
      return t('teams.removed', { count: changed });
    });

  return (
    <section className="admin-members" aria-label={t('teams.members')}>
      <h3>{t('teams.members')}</h3>
      <label className="admin-field">
        <span>{t('teams.buddy')}</span>
        <select
          value={team.buddy?.id ?? ''}
          onChange={(event) => onBuddy(event.target.value || null)}
        >
          <option value="">{t('teams.noBuddy')}</option>
          {team.buddy && !items.some((m) => m.id === team.buddy?.id) ? (
            <option value={team.buddy.id}>{team.buddy.name}</option>
          ) : null}
          {items.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </select>
      </label>
      <AddPeople
        teamId={team.id}
        onAdd={(people) =>
          act(async () => {
            const { changed } = await writes.addMembers.mutateAsync({
              id: team.id,
              body: { userIds: people.map((p) => p.id) },
            });
            return t('teams.added', { count: changed });
          })
        }
      />
      <label className="admin-field">
        <span>{t('teams.memberSearch')}</span>
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      {selected.size > 0 && confirming ? (
        <div
          className="settings-item__confirm"
          role="group"
          aria-label={t('teams.removeSelected', { count: selected.size })}
        >
          <p>
            {t('teams.removeConfirm', { count: selected.size, team: team.name })}{' '}
            {selectedSynced ? t('teams.removeSynced') : null}
          </p>
          <button
            type="button"
            className="button button--danger"
            disabled={writes.removeMembers.isPending}
            onClick={() => void removeSelected()}
          >
            {t('teams.removeYes')}
          </button>
          <button
            ref={cancelRef}
            type="button"
            className="button"
            onClick={() => {
              setConfirming(false);
              // Back to the button that asked.
              requestAnimationFrame(() => removeRef.current?.focus());
            }}
          >
            {t('teams.cancel')}
          </button>
        </div>
      ) : null}
      {selected.size > 0 && !confirming ? (
        <button
          ref={removeRef}
          type="button"
          className="button"
          onClick={() => (selectedSynced ? setConfirming(true) : void removeSelected())}
        >
          {t('teams.removeSelected', { count: selected.size })}
        </button>
      ) : null}
      {members.isSuccess && items.length === 0 ? (
        <p className="hint">{t('teams.noMembers')}</p>
      ) : null}
      <ul className="admin-list">
        {items.map((member) => (
          <li key={member.id} className="admin-list__row">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={selected.has(member.id)}
                aria-label={t('teams.select', { name: member.name })}
                onChange={() => toggle(member.id)}
              />
              {member.name}
            </label>
            <span className="hint">
              {member.email}
              {member.status !== 'active' ? ` · ${t(`teams.${member.status}`)}` : ''}
              {member.role === 'editor' ? ` · ${t('teams.editor')}` : ''}
            </span>
            <MembershipSources sources={member.sources} />
            <button
              type="button"
              className="link-button"
              onClick={() =>
                void act(async () => {
                  const role = member.role === 'editor' ? 'member' : 'editor';
                  await writes.setRole.mutateAsync({ id: team.id, userId: member.id, role });
                  const said = { name: member.name, team: team.name };
                  return role === 'editor'
                    ? t('teams.nowEditor', said)
                    : t('teams.nowMember', said);
                })
              }
            >
              {member.role === 'editor' ? t('teams.makeMember') : t('teams.makeEditor')}
            </button>
          </li>
        ))}
      </ul>
      {members.hasNextPage ? (
        <button type="button" className="button" onClick={() => void members.fetchNextPage()}>
          {t('teams.more')}
        </button>
      ) : null}
    </section>
  );
}

/**
 * Finds people of the organization by name or e-mail and adds those ticked. The search stays
 * after an add, so that several people can be added from it; who is in the team shows so.
 */
function AddPeople({
  teamId,
  onAdd,
}: {
  teamId: string;
  onAdd: (people: Candidate[]) => Promise<boolean>;
}) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search.trim(), 250);
  const candidates = useCandidates(teamId, query);
  const found = query ? (candidates.data ?? []) : [];
  const [picked, setPicked] = useState<Map<string, Candidate>>(new Map());
  // Those being added show as members at once: the search's answer, read again after the
  // add, may come after the team's list, and nobody should look addable while already in it.
  // Until the search answers again, which then says who is in the team.
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const answeredAt = candidates.dataUpdatedAt;
  useEffect(() => setAdded(new Set()), [answeredAt]);

  function toggle(person: Candidate) {
    setPicked((current) => {
      const next = new Map(current);
      if (next.has(person.id)) next.delete(person.id);
      else next.set(person.id, person);
      return next;
    });
  }

  return (
    <div className="admin-add-people">
      <label className="admin-field">
        <span>{t('teams.peopleSearch')}</span>
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </label>
      <ul className="admin-list" aria-label={t('teams.addPeople')}>
        {[...picked.values(), ...found.filter((p) => !picked.has(p.id))].map((person) => (
          <li key={person.id}>
            {(person.member || added.has(person.id)) && !picked.has(person.id) ? (
              <span className="checkbox">
                {person.name} <span className="hint">{person.email}</span>{' '}
                <span className="hint">· {t('teams.alreadyMember')}</span>
              </span>
            ) : (
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={picked.has(person.id)}
                  aria-label={t('teams.select', { name: person.name })}
                  onChange={() => toggle(person)}
                />
                {person.name} <span className="hint">{person.email}</span>
              </label>
            )}
          </li>
        ))}
      </ul>
      {query && candidates.isSuccess && !candidates.isPlaceholderData && found.length === 0 ? (
        <p className="hint" role="status">
          {t('teams.noPerson')}
        </p>
      ) : null}
      {picked.size > 0 ? (
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            // Shown as members at once, and no longer to be picked (nor added twice); if
            // the add fails, they are picked again, as they were.
            const chosen = new Map(picked);
            setAdded((before) => new Set([...before, ...chosen.keys()]));
            setPicked(new Map());
            void onAdd([...chosen.values()]).then((done) => {
              if (done) return;
              setPicked(chosen);
              setAdded((before) => new Set([...before].filter((id) => !chosen.has(id))));
            });
          }}
        >
          {t('teams.addSelected', { count: picked.size })}
        </button>
      ) : null}
    </div>
  );
}
