import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, ApiError } from '../../../lib/api-client';
import { loginWithPassword } from '../../../lib/auth';

interface Props {
  onError: (message: string | null) => void;
}

/** E-mail and password, sent as typed: no validation and no required checks (spec §5). */
export function EmailPasswordForm({ onError }: Props) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    onError(null);
    try {
      const result = await loginWithPassword(email, password);
      // The session was created but completing it failed: tell the person in an alert.
      if (result.error) window.alert(result.msg);
    } catch (error) {
      onError(
        (error instanceof ApiError ? errorMessage(error.data) : null) ?? (error as Error).message,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="login-form" onSubmit={submit} noValidate>
      <label className="field">
        <span className="field__label">{t('login.email')}</span>
        <input
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </label>
      <label className="field">
        <span className="field__label">{t('login.password')}</span>
        <input
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
        {t('login.submit')}
      </button>
    </form>
  );
}
