import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { useTeamWrites } from '../api/teams';
import { problemOf } from './people-dialogs';
import { PeopleTeamFilter } from './people-team-filter';

interface Props {
  /** The people chosen in the list. */
  ids: string[];
  onClose: () => void;
  /** What happened, to show in the list. */
  onDone: (message: string, added: boolean) => void;
}

/**
 * Adds the people chosen in the list to one team, with one role: the team's membership call,
 * all or nobody (a person who cannot be added refuses the whole call, and says who).
 */
export function AddToTeamDialog({ ids, onClose, onDone }: Props) {
  const { t } = useTranslation('admin');
  const [team, setTeam] = useState({ id: '', name: '' });
  const [role, setRole] = useState<'member' | 'editor'>('member');
  const [missing, setMissing] = useState(false);
  const { addMembers } = useTeamWrites();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!team.id) {
      setMissing(true);
      return;
    }
    addMembers.mutate(
      { id: team.id, body: { userIds: ids, role } },
      {
        onSuccess: ({ changed }) => {
          onDone(
            changed === 0
              ? t('people.addToTeam.already', { team: team.name })
              : t('people.addToTeam.added', { count: changed, team: team.name }),
            true,
          );
          onClose();
        },
      },
    );
  };

  const failure = addMembers.error
    ? t('people.addToTeam.failed', { team: team.name, reason: problemOf(addMembers.error) })
    : missing
      ? t('people.addToTeam.pickTeam')
      : null;

  return (
    <Dialog open onClose={onClose} title={t('people.addToTeam.title')}>
      <form className="people-form" onSubmit={submit}>
        <div role="alert" className="people-form__error">
          {failure}
        </div>
        <PeopleTeamFilter
          value={team.id}
          onChange={(id, name) => {
            setMissing(false);
            addMembers.reset();
            setTeam({ id, name });
          }}
          label={t('people.team')}
          noneLabel={t('people.form.noTeam')}
        />
        <label className="field">
          <span className="field__label">{t('people.form.teamRole')}</span>
          <select value={role} onChange={(e) => setRole(e.target.value as 'member' | 'editor')}>
            <option value="member">{t('people.roles.member')}</option>
            <option value="editor">{t('teams.editor')}</option>
          </select>
        </label>
        <div className="people-form__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('people.form.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={addMembers.isPending}>
            {t('people.bulk.addToTeam')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
