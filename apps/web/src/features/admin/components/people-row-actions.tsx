import type { PersonRow } from '@signpost/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { PersonDialog, problemOf } from './people-dialogs';
import { usePersonAction, useResendInvitation, useUpdatePerson } from '../api/people';

interface Props {
  person: PersonRow;
  onEdit: () => void;
  onDelete: () => void;
  onNotice: (text: string | null) => void;
}

/**
 * Opens the menu upward when there is no room for it below (a row near the bottom of the
 * window) and room above, so that every row of it shows.
 */
function placeMenu(details: HTMLDetailsElement) {
  const menu = details.querySelector<HTMLElement>('.people-actions__menu');
  if (!menu) return;
  menu.classList.remove('people-actions__menu--up');
  if (!details.open) return;
  const summary = details.querySelector('summary')?.getBoundingClientRect();
  const height = menu.getBoundingClientRect().height;
  if (!summary) return;
  const below = window.innerHeight - summary.bottom;
  if (below < height && summary.top > below) menu.classList.add('people-actions__menu--up');
}

/** The actions on one person, in a small disclosure menu. */
export function PersonActions({ person, onEdit, onDelete, onNotice }: Props) {
  const { t } = useTranslation('admin');
  const menu = useRef<HTMLDetailsElement>(null);
  const update = useUpdatePerson();
  const action = usePersonAction();
  const resend = useResendInvitation();
  const [resent, setResent] = useState(false);
  const [disabling, setDisabling] = useState(false);
  const name = person.name;
  const reportAs = (done: string) => ({
    onSuccess: () => onNotice(done),
    onError: (error: unknown) => onNotice(problemOf(error)),
  });
  const run = (work: () => void) => () => {
    menu.current?.removeAttribute('open');
    onNotice(null);
    work();
  };
  const becomes = person.role === 'admin' ? 'member' : 'admin';

  return (
    <>
      <details
        className="people-actions"
        ref={menu}
        onToggle={(event) => placeMenu(event.currentTarget)}
      >
        <summary className="button" aria-label={t('people.actionsFor', { name })}>
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
                { id: person.id, body: { role: becomes } },
                reportAs(t(`people.results.${becomes}`, { name })),
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
                  onError: (error) => onNotice(problemOf(error)),
                }),
              )}
            >
              {t('people.resend')}
            </button>
          ) : person.status === 'disabled' ? (
            <button
              type="button"
              onClick={run(() =>
                update.mutate(
                  { id: person.id, body: { status: 'active' } },
                  reportAs(t('people.results.enabled', { name })),
                ),
              )}
            >
              {t('people.enable')}
            </button>
          ) : (
            <button type="button" onClick={run(() => setDisabling(true))}>
              {t('people.disable')}
            </button>
          )}
          {person.secondFactor ? (
            <button
              type="button"
              onClick={run(() =>
                action.mutate(
                  { id: person.id, action: 'second-factor/reset' },
                  reportAs(t('people.results.secondFactor', { name })),
                ),
              )}
            >
              {t('people.resetSecondFactor')}
            </button>
          ) : null}
          <button
            type="button"
            onClick={run(() =>
              action.mutate(
                { id: person.id, action: 'sign-out' },
                reportAs(t('people.results.signedOut', { name })),
              ),
            )}
          >
            {t('people.signOut')}
          </button>
          <button type="button" className="people-actions__danger" onClick={run(onDelete)}>
            {t('people.delete')}
          </button>
        </div>
      </details>
      {disabling ? (
        <Dialog
          open
          onClose={() => setDisabling(false)}
          title={t('people.disableConfirm.title', { name })}
        >
          <p>{t('people.disableConfirm.text', { name })}</p>
          <div className="people-form__actions">
            <button type="button" className="button" onClick={() => setDisabling(false)}>
              {t('people.form.cancel')}
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={update.isPending}
              onClick={() =>
                update.mutate(
                  { id: person.id, body: { status: 'disabled' } },
                  {
                    onSuccess: () => {
                      setDisabling(false);
                      onNotice(t('people.results.disabled', { name }));
                    },
                    onError: (error) => {
                      setDisabling(false);
                      onNotice(problemOf(error));
                    },
                  },
                )
              }
            >
              {t('people.disableConfirm.yes', { name })}
            </button>
          </div>
        </Dialog>
      ) : null}
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
