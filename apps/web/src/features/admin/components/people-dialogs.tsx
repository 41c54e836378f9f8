import type { InvitationSentResponse, PersonRole, PersonRow } from '@signpost/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { errorMessage, ApiError } from '../../../lib/api-client';
import { useCreatePerson, useInvitePerson, usePerson, useUpdatePerson } from '../api/people';
import { PeopleTeamFilter } from './people-team-filter';

type TeamRole = 'member' | 'editor';

export const problemOf = (error: unknown) =>
  error instanceof ApiError ? errorMessage(error.data) : error ? String(error) : null;

export type PersonDialogMode =
  | { kind: 'invite' }
  | { kind: 'create' }
  | { kind: 'edit'; person: PersonRow }
  /** The answer of an invitation sent again. */
  | { kind: 'sent'; sent: InvitationSentResponse };

interface Props {
  mode: PersonDialogMode;
  onClose: () => void;
}

/**
 * What the dialog says of an invitation's queued mail (decision 0079): queued, then what the
 * mail server made of it, read from the person's page while the dialog is open.
 */
function QueuedMail({ sent }: { sent: InvitationSentResponse }) {
  const { t } = useTranslation('admin');
  const person = usePerson(sent.person.id);
  const mail = person.data?.invitation?.mail;
  const said = mail === 'sent' || mail === 'retrying' || mail === 'failed' ? mail : 'queued';
  return <p role="status">{t(`people.invitation.${said}`, { email: sent.person.email })}</p>;
}

/**
 * Invite, create or edit a person; an invitation says truthfully whether its mail went, or
 * shows its link to pass on and why.
 */
export function PersonDialog({ mode, onClose }: Props) {
  const { t } = useTranslation('admin');
  const editing = mode.kind === 'edit' ? mode.person : null;
  const [name, setName] = useState(editing?.name ?? '');
  const [email, setEmail] = useState(editing?.email ?? '');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<PersonRole>('member');
  const invite = useInvitePerson();
  const create = useCreatePerson();
  const update = useUpdatePerson();
  const active = mode.kind === 'invite' ? invite : mode.kind === 'create' ? create : update;
  const sent = mode.kind === 'sent' ? mode.sent : invite.data;
  const [copied, setCopied] = useState(false);
  const [team, setTeam] = useState<{ id: string; name: string }>({ id: '', name: '' });
  const [teamRole, setTeamRole] = useState<TeamRole>('member');
  // What became of the team chosen for an invitation: said with the invitation's link.
  const [joined, setJoined] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode.kind === 'invite') {
      // Into the team with the invitation, or neither (one call).
      const teamBody = team.id ? { team: { id: team.id, role: teamRole } } : {};
      invite.mutate(
        { name, email, role, ...teamBody },
        {
          onSuccess: (answer) => {
            if (!team.id) return;
            setJoined(
              t('people.invitation.inTeam', {
                name: answer.person.name,
                team: team.name,
                role: teamRole === 'editor' ? t('teams.editor') : t('people.roles.member'),
              }),
            );
          },
        },
      );
    } else if (mode.kind === 'create')
      create.mutate({ name, email, password, role }, { onSuccess: onClose });
    else if (mode.kind === 'edit')
      update.mutate({ id: mode.person.id, body: { name, email } }, { onSuccess: onClose });
  };

  const title =
    mode.kind === 'invite' || mode.kind === 'sent'
      ? t('people.form.inviteTitle')
      : mode.kind === 'create'
        ? t('people.form.createTitle')
        : t('people.form.editTitle', { name: editing?.name ?? '' });

  if (sent) {
    return (
      <Dialog open onClose={onClose} title={title}>
        {sent.mail === 'queued' || !sent.link ? (
          <QueuedMail sent={sent} />
        ) : (
          <div className="people-invitation-link">
            <p role="status">
              {t(
                sent.mail === 'not-queued'
                  ? 'people.invitation.notQueued'
                  : 'people.invitation.copy',
                { email: sent.person.email },
              )}
            </p>
            <label className="field">
              <span className="field__label">{t('people.invitation.link')}</span>
              <input readOnly value={sent.link} onFocus={(event) => event.target.select()} />
            </label>
            <button
              type="button"
              className="button"
              onClick={() => {
                void navigator.clipboard?.writeText(sent.link ?? '').then(() => setCopied(true));
              }}
            >
              {t('people.invitation.copyButton')}
            </button>
            {copied ? <span role="status">{t('people.invitation.copied')}</span> : null}
          </div>
        )}
        {joined ? <p role="status">{joined}</p> : null}
        <div className="people-form__actions">
          <button type="button" className="button button--primary" onClick={onClose}>
            {t('people.invitation.close')}
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={onClose} title={title}>
      <form className="people-form" onSubmit={submit}>
        <div role="alert" className="people-form__error">
          {problemOf(active.error)}
        </div>
        <label className="field">
          <span className="field__label">{t('people.form.name')}</span>
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t('people.form.email')}</span>
          <input
            required
            type="email"
            maxLength={320}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        {mode.kind === 'create' ? (
          <label className="field">
            <span className="field__label">{t('people.form.password')}</span>
            <input
              required
              type="password"
              autoComplete="new-password"
              minLength={8}
              maxLength={128}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        ) : null}
        {mode.kind !== 'edit' ? (
          <label className="field">
            <span className="field__label">{t('people.form.role')}</span>
            <select value={role} onChange={(e) => setRole(e.target.value as PersonRole)}>
              <option value="member">{t('people.roles.member')}</option>
              <option value="admin">{t('people.roles.admin')}</option>
            </select>
          </label>
        ) : null}
        {mode.kind === 'invite' ? (
          <div className="people-form__team">
            <PeopleTeamFilter
              value={team.id}
              onChange={(id, teamName) => setTeam({ id, name: teamName })}
              label={t('people.form.team')}
              noneLabel={t('people.form.noTeam')}
            />
            {team.id ? (
              <label className="field">
                <span className="field__label">{t('people.form.teamRole')}</span>
                <select value={teamRole} onChange={(e) => setTeamRole(e.target.value as TeamRole)}>
                  <option value="member">{t('people.roles.member')}</option>
                  <option value="editor">{t('teams.editor')}</option>
                </select>
              </label>
            ) : null}
          </div>
        ) : null}
        <div className="people-form__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('people.form.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={active.isPending}>
            {mode.kind === 'invite'
              ? t('people.form.inviteSubmit')
              : mode.kind === 'create'
                ? t('people.form.createSubmit')
                : t('people.form.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
