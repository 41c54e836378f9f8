import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../../../lib/config';
import {
  clearPendingSsoError,
  clearPendingSsoTicket,
  getPendingSsoError,
  getPendingSsoTicket,
} from '../../../lib/session-fragment';
import { useLoginMethods } from '../api/get-login-methods';
import { EmailPasswordForm } from './email-password-form';
import { SsoSecondFactor } from './sso-second-factor';
import { TokenSignIn } from './token-sign-in';

/** The login screen of spec §2: tagline, a modal with 'Sign in', an error area, methods. */
export function LoginScreen() {
  const { t } = useTranslation();
  const methods = useLoginMethods();
  // A single sign-on that failed comes back here with its reason (taken from the address).
  const [error, setError] = useState<string | null>(() => {
    const failure = getPendingSsoError();
    return failure ? (failure.message ?? t('login.ssoFailed')) : null;
  });
  // A single sign-on of a person with a second factor comes back with a ticket: the code
  // is asked before anything else (decision 0048).
  const [ticket, setTicket] = useState(getPendingSsoTicket);
  useEffect(() => {
    clearPendingSsoError();
    clearPendingSsoTicket();
  }, []);
  const list = methods.data ?? [];
  const hasPassword = list.some((method) => method.type === 'email-password');
  const sso = list.filter((method) => method.type === 'sso-oidc-id-token' && method.loginUrl);

  return (
    <main className="login">
      <p className="login__brand">{config.brand}</p>
      <p className="login__tagline">{t('brand.tagline')}</p>
      <section
        className="login__modal"
        role="dialog"
        aria-modal="false"
        aria-labelledby="login-title"
      >
        <h1 id="login-title">{t('login.title')}</h1>
        <div className="login__error" role="alert" aria-live="assertive">
          {error ?? (methods.isError ? t('login.methodsFailed') : null)}
        </div>
        {ticket ? (
          <SsoSecondFactor ticket={ticket} onError={setError} onEnd={() => setTicket(null)} />
        ) : null}
        {!ticket && methods.isPending ? <p className="hint">{t('portal.loading')}</p> : null}
        {!ticket && hasPassword ? <EmailPasswordForm onError={setError} /> : null}
        {!ticket && sso.length > 0 ? (
          <div className="login__sso">
            <p>{t('login.orSignInWith')}</p>
            {sso.map((method) => (
              <button
                key={method.name}
                type="button"
                className="button"
                onClick={() => {
                  setError(null);
                  window.location.assign(method.loginUrl!);
                }}
              >
                {method.name}
              </button>
            ))}
          </div>
        ) : null}
        {ticket ? null : <TokenSignIn onError={setError} />}
      </section>
    </main>
  );
}
