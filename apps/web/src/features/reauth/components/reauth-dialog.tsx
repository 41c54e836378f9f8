import type { ReauthenticationMethodsResponse } from '@signpost/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog';
import { OneTimeCodeInput } from '../../../components/one-time-code-input';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { errorCode, SECOND_FACTOR_REQUIRED } from '../../../lib/auth';
import { TOTP_CODE_LENGTH } from '../../../lib/constants';
import {
  getReauthenticationMethods,
  reauthenticateWithPassword,
  startSsoReauthentication,
} from '../api/reauthenticate';

interface Props {
  /** The server's message: what needs confirming. */
  message: string | null;
  /** Confirmed: the call that asked is made again. */
  onDone: () => void;
  /** Cancelled (or left for the provider): the call that asked fails as it was answered. */
  onCancel: () => void;
}

function messageOf(error: unknown) {
  return (error instanceof ApiError ? errorMessage(error.data) : null) ?? (error as Error).message;
}

/** A code of the app is digits (spaces allowed); anything else is taken for a recovery code. */
function codeField(code: string) {
  const value = code.trim();
  return /^[\d\s]+$/.test(value) ? { totp: value } : { recoveryCode: value };
}

/**
 * "Confirm it's you" (decision 0048): the password (and the second factor's code when it is
 * on), or a fresh sign-in at one of the person's single sign-on providers, which leaves
 * the page and comes back to it.
 */
export function ReauthDialog({ message, onDone, onCancel }: Props) {
  const { t } = useTranslation();
  const [methods, setMethods] = useState<ReauthenticationMethodsResponse | null>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needCode, setNeedCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const codeHintId = useId();

  useEffect(() => {
    let live = true;
    getReauthenticationMethods().then(
      (answer) => {
        if (!live) return;
        setMethods(answer);
        setNeedCode(answer.secondFactor);
      },
      (failure: unknown) => live && setError(messageOf(failure) || t('reauth.failed')),
    );
    return () => {
      live = false;
    };
  }, [t]);

  // The dialog opened before the methods were known: the password field takes the focus.
  useEffect(() => {
    if (methods?.password) passwordRef.current?.focus();
  }, [methods]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await reauthenticateWithPassword({
        password,
        ...(needCode && code.trim() ? codeField(code) : {}),
      });
      onDone();
    } catch (failure) {
      if (errorCode(failure) === SECOND_FACTOR_REQUIRED) setNeedCode(true);
      else setCode('');
      setError(messageOf(failure) || t('reauth.failed'));
    } finally {
      setBusy(false);
    }
  }

  async function signInAgain(provider: string) {
    setBusy(true);
    setError(null);
    try {
      const location = await startSsoReauthentication(
        provider,
        window.location.pathname + window.location.search,
      );
      onCancel();
      window.location.assign(location);
    } catch (failure) {
      setError(messageOf(failure) || t('reauth.failed'));
      setBusy(false);
    }
  }

  const providers = methods?.providers ?? [];
  return (
    <Dialog open onClose={onCancel} title={t('reauth.title')} className="reauth-dialog">
      <p id={hintId} className="hint">
        {message ?? t('reauth.intro', { minutes: methods?.windowMinutes ?? 5 })}
      </p>
      <div className="form-error" role="alert">
        {error}
      </div>
      {methods === null && !error ? <p className="hint">{t('reauth.loading')}</p> : null}
      {methods?.password ? (
        <form className="login-form" onSubmit={submit} noValidate>
          <label className="field">
            <span className="field__label">{t('reauth.password')}</span>
            <input
              ref={passwordRef}
              type="password"
              name="password"
              autoComplete="current-password"
              aria-describedby={hintId}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </label>
          {needCode ? (
            <>
              <label className="field">
                <span className="field__label">
                  {t('login.secondFactor.codeLabel', { count: TOTP_CODE_LENGTH })}
                </span>
                <OneTimeCodeInput
                  aria-describedby={codeHintId}
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                />
              </label>
              <p id={codeHintId} className="hint">
                {t('reauth.codeHint')}
              </p>
            </>
          ) : null}
          <div className="dialog__actions">
            <button type="button" className="button" onClick={onCancel}>
              {t('reauth.cancel')}
            </button>
            <button
              type="submit"
              className="button button--primary"
              disabled={busy}
              aria-busy={busy}
            >
              {t('reauth.submit')}
            </button>
          </div>
        </form>
      ) : null}
      {providers.length > 0 ? (
        <div className="login__sso">
          {methods?.password ? <p>{t('reauth.orProvider')}</p> : null}
          {providers.map((provider) => (
            <button
              key={provider.id}
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void signInAgain(provider.id)}
            >
              {provider.name}
            </button>
          ))}
        </div>
      ) : null}
      {methods && !methods.password && providers.length === 0 ? (
        <p className="hint">{t('reauth.noMethod')}</p>
      ) : null}
    </Dialog>
  );
}
