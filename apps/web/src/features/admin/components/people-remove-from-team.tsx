import type { SsoGroupsResponse, TeamMembersResponse } from '@signpost/contract';
import { LIMITS } from '@signpost/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { adminApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/use-session';
import { teamsKeys, useTeamWrites } from '../api/teams';
import { problemOf } from './people-dialogs';
import { PeopleTeamFilter } from './people-team-filter';

interface Props {
  /** The people chosen in the list. */
  ids: string[];
  onClose: () => void;
  /** What happened, to show in the list; `all` when every call went through. */
  onDone: (message: string, all: boolean) => void;
}

/**
 * Whether the team's memberships may come from the identity system as well as from the
 * console: a group of a single sign-on provider gives the team, or a member of its first page
 * was added by SCIM or at a sign-in. Such a membership removed here may be made again by the
 * next sync or sign-in (decision 0084). Unknown (the look-up failed) counts as "may".
 */
function useTeamSynced(teamId: string) {
  const { token } = useSession();
  return useQuery({
    queryKey: [...teamsKeys.all(token), 'synced', teamId] as const,
    enabled: teamId !== '',
    queryFn: async () => {
      const [members, groups] = await Promise.all([
        adminApi.request<TeamMembersResponse>(`/teams/${teamId}/members`, {
          query: { limit: 100 },
        }),
        adminApi
          .request<SsoGroupsResponse>('/sso-groups')
          .then((answer) => answer.data.items)
          .catch(() => []),
      ]);
      const fromGroups = groups.some((provider) =>
        provider.claim !== null
          ? provider.mappings.some((mapping) => mapping.teamId === teamId)
          : false,
      );
      const fromSync = members.data.items.some((member) =>
        member.sources.some((source) => source !== 'console'),
      );
      return fromGroups || fromSync;
    },
  });
}

/** The ids in calls of at most `size` (the team's membership call takes 100 at most). */
function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Takes the people chosen in the list out of one team: the team is chosen, then the removal
 * confirmed with the team's name and the count, and a warning when the identity system may
 * add them again. The team's call takes 100 people at a time; the result says how many were
 * removed and how many were not in the team.
 */
export function RemoveFromTeamDialog({ ids, onClose, onDone }: Props) {
  const { t } = useTranslation('admin');
  const [team, setTeam] = useState({ id: '', name: '' });
  const [missing, setMissing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { removeMembers } = useTeamWrites();
  const synced = useTeamSynced(team.id);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Focus follows the question, to its safe answer.
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  const choose = (event: FormEvent) => {
    event.preventDefault();
    if (!team.id) {
      setMissing(true);
      return;
    }
    setFailure(null);
    setConfirming(true);
  };

  async function remove() {
    setBusy(true);
    setFailure(null);
    let removed = 0;
    let done = 0;
    try {
      for (const part of chunks(ids, LIMITS.membersPerCall)) {
        const { changed } = await removeMembers.mutateAsync({ id: team.id, userIds: part });
        removed += changed;
        done += part.length;
      }
    } catch (error) {
      setBusy(false);
      const reason = problemOf(error) ?? t('teams.failed');
      if (done === 0) {
        setFailure(t('people.removeFromTeam.failed', { team: team.name, reason }));
        return;
      }
      onDone(t('people.removeFromTeam.partly', { done: summary(removed), reason }), false);
      onClose();
      return;
    }
    setBusy(false);
    onDone(
      removed === 0
        ? t('people.removeFromTeam.noneIn', { team: team.name })
        : removed === done
          ? t('people.removeFromTeam.result', { removed: summary(removed) })
          : t('people.removeFromTeam.resultPartly', {
              removed: summary(removed),
              notIn: t('people.removeFromTeam.notIn', { count: done - removed }),
            }),
      true,
    );
    onClose();
  }

  /** "Removed 3 people from Finance", for what was removed so far. */
  function summary(removed: number) {
    return t('people.removeFromTeam.removed', { count: removed, team: team.name });
  }

  const problem = failure ?? (missing && !team.id ? t('people.removeFromTeam.pickTeam') : null);

  return (
    <Dialog open onClose={onClose} title={t('people.removeFromTeam.title')}>
      {confirming ? (
        <div className="people-form">
          <div role="alert" className="people-form__error">
            {problem}
          </div>
          <p>
            {t('people.removeFromTeam.confirm', { count: ids.length, team: team.name })}{' '}
            {synced.isPending
              ? t('people.removeFromTeam.checking', { team: team.name })
              : synced.data !== false
                ? t('people.removeFromTeam.synced', { team: team.name })
                : null}
          </p>
          <div className="people-form__actions">
            <button
              ref={cancelRef}
              type="button"
              className="button"
              onClick={() => {
                setConfirming(false);
                setFailure(null);
              }}
            >
              {t('people.form.cancel')}
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={busy || synced.isPending}
              aria-busy={busy}
              onClick={() => void remove()}
            >
              {t('people.removeFromTeam.yes', { team: team.name })}
            </button>
          </div>
        </div>
      ) : (
        <form className="people-form" onSubmit={choose}>
          <div role="alert" className="people-form__error">
            {problem}
          </div>
          <PeopleTeamFilter
            value={team.id}
            onChange={(id, name) => {
              setMissing(false);
              setFailure(null);
              setTeam({ id, name });
            }}
            label={t('people.team')}
            noneLabel={t('people.form.noTeam')}
          />
          <div className="people-form__actions">
            <button type="button" className="button" onClick={onClose}>
              {t('people.form.cancel')}
            </button>
            <button type="submit" className="button button--primary">
              {t('people.bulk.removeFromTeam')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
