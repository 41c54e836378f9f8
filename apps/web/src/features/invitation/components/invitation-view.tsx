import { LIMITS } from '@signpost/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, ApiError } from '../../../lib/api-client';
import { config } from '../../../lib/config';
import { setSessionToken } from '../../../lib/session-store';
import { acceptInvitation, lookUpInvitation } from '../api/invitation';
import '../../../lib/panel-texts';

interface Props {
  token: string;
  /** Leaves the screen: signed in (the portal shows), or to the sign-in screen. */
  onDone: () => void;
}

const messageOf = (error: unknown) => (error instanceof ApiError ? errorMessage(error.data) : null);

/** Accepting an invitation: who you are, choose a password, and you are signed in. */
export default function InvitationView({ token, onDone }: Props) {
  const { t } = useTranslation();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => lookUpInvitation(token),
    retry: false,
  });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token, password),
    onSuccess: (sessionToken) => {
      setSessionToken(sessionToken);
      onDone();
    },
    onError: (error) => setProblem(messageOf(error) ?? t('invitation.failed')),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password.length < LIMITS.password.min) return setProblem(t('invitation.tooShort'));
    if (password.length > LIMITS.password.max) return setProblem(t('invitation.tooLong'));
    if (password !== confirm) return setProblem(t('invitation.mismatch'));
    setProblem(null);
    accept.mutate();
  };

  const data = invitation.data;
  return (
    <main className="login">
      <p className="login__brand">{config.brand}</p>
      <section
        className="login__modal"
        role="dialog"
        aria-modal="false"
        aria-labelledby="invitation-title"
      >
        {invitation.isPending ? <p className="hint">{t('invitation.loading')}</p> : null}
        {invitation.isError ? (
          <>
            <h1 id="invitation-title">{t('invitation.invalidTitle')}</h1>
            <p role="alert">{messageOf(invitation.error) ?? t('invitation.failed')}</p>
            <button type="button" className="button" onClick={onDone}>
              {t('invitation.toSignIn')}
            </button>
          </>
        ) : null}
        {data ? (
          <>
            <h1 id="invitation-title">
              {t('invitation.title', { organization: data.organization.name })}
            </h1>
            <p>{t('invitation.who', { name: data.person.name, email: data.person.email })}</p>
            <div className="login__error" role="alert" aria-live="assertive">
              {problem}
            </div>
            <form className="login-form" onSubmit={submit} noValidate>
              <input
                type="hidden"
                name="username"
                autoComplete="username"
                value={data.person.email}
              />
              <label className="field">
                <span className="field__label">{t('invitation.password')}</span>
                <input
                  type="password"
                  name="password"
                  autoComplete="new-password"
                  aria-describedby="invitation-hint"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                />
              </label>
              <p id="invitation-hint" className="hint">
                {t('invitation.hint')}
              </p>
              <label className="field">
                <span className="field__label">{t('invitation.confirm')}</span>
                <input
                  type="password"
                  name="confirm"
                  autoComplete="new-password"
                  value={confirm}
                  onChange={(event) => setConfirm(event.target.value)}
                />
              </label>
              <button
                type="submit"
                className="button button--primary"
                disabled={accept.isPending}
                aria-busy={accept.isPending}
              >
                {t('invitation.submit')}
              </button>
            </form>
          </>
        ) : null}
      </section>
    </main>
  );
}
