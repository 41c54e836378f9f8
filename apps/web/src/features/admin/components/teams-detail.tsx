import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useTeam, useTeamWrites } from '../api/teams';
import { failureOf } from './failure-of';
import { TeamsMembers } from './teams-members';

interface Props {
  id: string;
  /** Back to the list, with a message to show there (after a deletion). */
  onBack: (message?: string) => void;
  /** Shows the team's space, to run it as its editors do (decision 0008). */
  onOpenSpace: () => void;
}

/** One team: rename, buddy, delete (confirming the counts), and its members. */
export function TeamsDetail({ id, onBack, onOpenSpace }: Props) {
  const { t } = useTranslation('admin');
  const team = useTeam(id);
  const writes = useTeamWrites();
  const [name, setName] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function run(work: () => Promise<unknown>, done: string) {
    setError(null);
    setNotice(null);
    try {
      await work();
      setNotice(done);
      return true;
    } catch (failure) {
      setError(failureOf(failure, t('teams.failed')));
      void team.refetch();
      return false;
    }
  }

  if (team.isPending) return <p className="hint">{t('console.loading')}</p>;
  if (team.isError) {
    return (
      <div>
        <button type="button" className="link-button" onClick={() => onBack()}>
          {t('teams.back')}
        </button>
        <p className="form-error">{failureOf(team.error, t('console.loadFailed'))}</p>
      </div>
    );
  }
  const data = team.data;

  async function onRename(event: FormEvent) {
    event.preventDefault();
    if (name === null) return;
    const ok = await run(
      () => writes.update.mutateAsync({ id, body: { name } }),
      t('teams.renamed'),
    );
    if (ok) setName(null);
  }

  async function onDelete() {
    const ok = await run(
      () =>
        writes.remove.mutateAsync({
          id,
          collections: data.collectionCount,
          links: data.linkCount,
        }),
      '',
    );
    if (ok) onBack(t('teams.deleted', { name: data.name }));
    else setConfirming(false);
  }

  return (
    <div className="admin-team">
      <button type="button" className="link-button" onClick={() => onBack()}>
        {t('teams.back')}
      </button>
      <div className="admin-team__head">
        <h2 className="admin-tab__title">{data.name}</h2>
        <button type="button" className="button" onClick={onOpenSpace}>
          {t('teams.openSpace')}
        </button>
      </div>
      <p role="alert" className="form-error">
        {error}
      </p>
      <p role="status" className="hint">
        {notice}
      </p>
      <form className="admin-row" onSubmit={(event) => void onRename(event)}>
        <label className="admin-field">
          <span>{t('teams.name')}</span>
          <input
            value={name ?? data.name}
            maxLength={200}
            required
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button type="submit" className="button" disabled={name === null || name === data.name}>
          {t('teams.rename')}
        </button>
      </form>
      <TeamsMembers
        team={data}
        onBuddy={(buddyId) =>
          void run(
            () => writes.update.mutateAsync({ id, body: { buddyId } }),
            t('teams.buddySaved'),
          )
        }
        onMessage={(message, failed) => {
          setError(failed ? message : null);
          setNotice(failed ? null : message);
        }}
      />
      <div className="admin-danger">
        {confirming ? (
          <>
            <p>
              {t('teams.deleteConfirm', {
                name: data.name,
                collections: t('teams.collectionCount', { count: data.collectionCount }),
                links: t('teams.linkCount', { count: data.linkCount }),
              })}
            </p>
            <button type="button" className="button button--danger" onClick={() => void onDelete()}>
              {t('teams.deleteYes', { name: data.name })}
            </button>{' '}
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              {t('teams.cancel')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              void team.refetch();
              setConfirming(true);
            }}
          >
            {t('teams.delete')}
          </button>
        )}
      </div>
    </div>
  );
}
