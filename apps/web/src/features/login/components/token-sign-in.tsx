import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCESS_TOKEN_EXPIRED, loginByToken, type LoginResult } from '../../../lib/auth';
import { STATUS_UNAUTHORIZED } from '../../../lib/constants';
import { config } from '../../../lib/config';

interface Props {
  onError: (message: string | null) => void;
}

/** 'Access your {brand}': sign in by pasting an access token. */
export function TokenSignIn({ onError }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const formId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = token.trim();
    // Nothing to check: the server would only say to sign in.
    if (value === '') {
      onError(t('login.tokenMissing'));
      return;
    }
    setBusy(true);
    onError(null);
    const result = await loginByToken(value);
    setBusy(false);
    if (result.error) onError(refusalText(result));
  }

  /**
   * A 401 is about the token the person pasted, whatever the server calls it for other
   * callers ("session ended", decision 0054); anything else (too many attempts, the server
   * unreachable) shows the server's own message.
   */
  function refusalText(result: Extract<LoginResult, { error: true }>) {
    if (result.status !== STATUS_UNAUTHORIZED) return result.msg;
    return result.code === ACCESS_TOKEN_EXPIRED ? t('login.tokenExpired') : t('login.tokenInvalid');
  }

  return (
    <div className="token-sign-in">
      <button
        type="button"
        className="button button--ghost"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen((value) => !value)}
      >
        {t('login.accessYour', { brand: config.brand })}
      </button>
      {open ? (
        <form id={formId} className="login-form" onSubmit={submit} noValidate>
          <label className="field">
            <span className="field__label">{t('login.tokenLabel')}</span>
            <input
              type="password"
              name="token"
              autoComplete="off"
              spellCheck={false}
              value={token}
              onChange={(event) => setToken(event.target.value)}
              aria-describedby={`${formId}-hint`}
            />
          </label>
          <p id={`${formId}-hint`} className="hint">
            {t('login.tokenHint')}
          </p>
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
            {t('login.tokenSubmit')}
          </button>
        </form>
      ) : null}
    </div>
  );
}
