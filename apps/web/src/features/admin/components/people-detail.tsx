import type { OpenInvitation } from '@signpost/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePerson } from '../api/people';
import { openConsoleView } from '../console-address';
import { DeletePeopleDialog } from './people-delete-dialog';
import { PersonDialog, problemOf } from './people-dialogs';
import { PersonActions } from './people-row-actions';

const when = (at: string) => new Date(at).toLocaleString();

/** An invited person's open invitation: until when it works, and what became of its mail. */
function InvitationFacts({ invitation }: { invitation: OpenInvitation }) {
  const { t } = useTranslation('admin');
  const expired = new Date(invitation.expiresAt).getTime() <= Date.now();
  const at = invitation.mailAt ? when(invitation.mailAt) : '';
  return (
    <>
      <dt>{t('people.openInvitation.title')}</dt>
      <dd>
        {t(expired ? 'people.openInvitation.expired' : 'people.openInvitation.works', {
          made: when(invitation.createdAt),
          until: when(invitation.expiresAt),
        })}
      </dd>
      <dt>{t('people.openInvitation.mail')}</dt>
      <dd>{t(`people.openInvitation.mails.${invitation.mail ?? 'none'}`, { at })}</dd>
    </>
  );
}

/** One person's page in the console (`/console/people/<id>`): who they are, and the actions. */
export function PersonDetail({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  const person = usePerson(id);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const back = (
    <button
      type="button"
      className="link-button"
      onClick={() => openConsoleView({ section: 'people' })}
    >
      {t('people.back')}
    </button>
  );
  if (person.isPending) return <p className="hint">{t('console.loading')}</p>;
  if (person.isError) {
    return (
      <div>
        {back}
        <p role="alert" className="form-error">
          {problemOf(person.error) ?? t('console.loadFailed')}
        </p>
      </div>
    );
  }
  const row = person.data;
  return (
    <div className="admin-person">
      {back}
      <div className="admin-team__head">
        <h2 className="admin-tab__title">{row.name}</h2>
        <PersonActions
          person={row}
          onEdit={() => setDialog('edit')}
          onDelete={() => setDialog('delete')}
          onNotice={setNotice}
        />
      </div>
      <p role="status" className="people-notice">
        {notice}
      </p>
      <dl className="admin-person__facts">
        <dt>{t('people.form.email')}</dt>
        <dd>{row.email}</dd>
        <dt>{t('people.columns.role')}</dt>
        <dd>{t(`people.roles.${row.role}`)}</dd>
        <dt>{t('people.columns.status')}</dt>
        <dd>{t(`people.statuses.${row.status}`)}</dd>
        <dt>{t('people.columns.teams')}</dt>
        <dd>{row.teams.length > 0 ? row.teams.join(', ') : t('people.noTeams')}</dd>
        <dt>{t('people.columns.lastSignIn')}</dt>
        <dd>
          {row.lastSignInAt ? new Date(row.lastSignInAt).toLocaleString() : t('people.never')}
        </dd>
        {row.invitation ? <InvitationFacts invitation={row.invitation} /> : null}
      </dl>
      {dialog === 'edit' ? (
        <PersonDialog mode={{ kind: 'edit', person: row }} onClose={() => setDialog(null)} />
      ) : dialog === 'delete' ? (
        <DeletePeopleDialog people={[row]} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
