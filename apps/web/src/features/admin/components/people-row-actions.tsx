import type { PersonRow } from '@signpost/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PersonDialog, problemOf } from './people-dialogs';
import { usePersonAction, useResendInvitation, useUpdatePerson } from '../api/people';

interface Props {
  person: PersonRow;
  onEdit: () => void;
  onDelete: () => void;
  onNotice: (text: string | null) => void;
}

/** The actions on one person, in a small disclosure menu. */
export function PersonActions({ person, onEdit, onDelete, onNotice }: Props) {
  const { t } = useTranslation('admin');
  const menu = useRef<HTMLDetailsElement>(null);
  const update = useUpdatePerson();
  const action = usePersonAction();
  const resend = useResendInvitation();
  const [resent, setResent] = useState(false);
  const report = {
    onSuccess: () => onNotice(t('people.done')),
    onError: (error: unknown) => onNotice(problemOf(error)),
  };
  const run = (work: () => void) => () => {
    menu.current?.removeAttribute('open');
    onNotice(null);
    work();
  };

  return (
    <>
      <details className="people-actions" ref={menu}>
        <summary className="button" aria-label={t('people.actionsFor', { name: person.name })}>
          {t('people.actions')}
        </summary>
        <div className="people-actions__menu">
          <button type="button" onClick={run(onEdit)}>
            {t('people.edit')}
          </button>
          <button
            type="button"
            onClick={run(() =>
              update.mutate(
                { id: person.id, body: { role: person.role === 'admin' ? 'member' : 'admin' } },
                report,
              ),
            )}
          >
            {person.role === 'admin' ? t('people.makeMember') : t('people.makeAdmin')}
          </button>
          {person.status === 'invited' ? (
            <button
              type="button"
              onClick={run(() =>
                resend.mutate(person.id, {
                  onSuccess: () => setResent(true),
                  onError: report.onError,
                }),
              )}
            >
              {t('people.resend')}
            </button>
          ) : (
            <button
              type="button"
              onClick={run(() =>
                update.mutate(
                  {
                    id: person.id,
                    body: { status: person.status === 'disabled' ? 'active' : 'disabled' },
                  },
                  report,
                ),
              )}
            >
              {person.status === 'disabled' ? t('people.enable') : t('people.disable')}
            </button>
          )}
          {person.secondFactor ? (
            <button
              type="button"
              onClick={run(() =>
                action.mutate({ id: person.id, action: 'second-factor/reset' }, report),
              )}
            >
              {t('people.resetSecondFactor')}
            </button>
          ) : null}
          <button
            type="button"
            onClick={run(() => action.mutate({ id: person.id, action: 'sign-out' }, report))}
          >
            {t('people.signOut')}
          </button>
          <button type="button" className="people-actions__danger" onClick={run(onDelete)}>
            {t('people.delete')}
          </button>
        </div>
      </details>
      {resent && resend.data ? (
        <ResentDialog sent={resend.data} onClose={() => setResent(false)} />
      ) : null}
    </>
  );
}

/** The answer of a resent invitation: the new link to copy, or that it was mailed. */
function ResentDialog({
  sent,
  onClose,
}: {
  sent: NonNullable<ReturnType<typeof useResendInvitation>['data']>;
  onClose: () => void;
}) {
  return <PersonDialog mode={{ kind: 'sent', sent }} onClose={onClose} />;
}
