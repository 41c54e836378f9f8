import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, ApiError } from '../../../lib/api-client';
import { errorCode, loginWithPassword, SECOND_FACTOR_REQUIRED } from '../../../lib/auth';
import type { SecondFactor } from '../../../lib/auth';
import { SecondFactorStep } from './second-factor-step';

interface Props {
  onError: (message: string | null) => void;
}

function messageOf(error: unknown) {
  return (error instanceof ApiError ? errorMessage(error.data) : null) ?? (error as Error).message;
}

/**
 * E-mail and password, sent as typed: no validation and no required checks (spec §5). When
 * the account has a second factor, the server asks for it and the form shows that step; the
 * same e-mail and password are sent again with the code.
 */
export function EmailPasswordForm({ onError }: Props) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<'password' | 'second-factor'>('password');
  const passwordRef = useRef<HTMLInputElement>(null);

  async function signIn(factor?: SecondFactor): Promise<boolean> {
    setBusy(true);
    onError(null);
    try {
      const result = await loginWithPassword(email, password, factor);
      // The session was created but completing it failed: tell the person in an alert.
      if (result.error) window.alert(result.msg);
      return true;
    } catch (error) {
      if (errorCode(error) === SECOND_FACTOR_REQUIRED) {
        setStep('second-factor');
        return true;
      }
      onError(messageOf(error));
      return false;
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void signIn();
  }

  if (step === 'second-factor') {
    return (
      <SecondFactorStep
        busy={busy}
        onSubmit={signIn}
        onBack={() => {
          onError(null);
          setStep('password');
          // Back where the person left: the password field, ready to edit.
          requestAnimationFrame(() => passwordRef.current?.focus());
        }}
      />
    );
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
          ref={passwordRef}
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
