import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecondFactor } from '../../../lib/auth';
import { TOTP_CODE_LENGTH } from '../../../lib/constants';
import { OneTimeCodeInput } from '../../../components/one-time-code-input';

interface Props {
  busy: boolean;
  /** Sends the password again with the code; resolves false when the code was refused. */
  onSubmit: (factor: SecondFactor) => Promise<boolean>;
  onBack: () => void;
  /** The text of the back button; 'Back to e-mail and password' by default. */
  backLabel?: string;
}

/**
 * The second step of a password sign-in: the authenticator app's code, or one of the
 * recovery codes. A refused code is cleared so that the next one can be typed at once.
 */
export function SecondFactorStep({ busy, onSubmit, onBack, backLabel }: Props) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const hintId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = code.trim();
    const accepted = await onSubmit(recovery ? { recoveryCode: value } : { totp: value });
    if (!accepted) {
      setCode('');
      inputRef.current?.focus();
    }
  }

  return (
    <form
      className="login-form second-factor"
      onSubmit={submit}
      noValidate
      aria-labelledby={titleId}
    >
      <h2 id={titleId} className="second-factor__title">
        {t('login.secondFactor.title')}
      </h2>
      <p id={hintId} className="hint">
        {recovery
          ? t('login.secondFactor.recoveryHint')
          : t('login.secondFactor.codeHint', { count: TOTP_CODE_LENGTH })}
      </p>
      <label className="field">
        <span className="field__label">
          {recovery
            ? t('login.secondFactor.recoveryLabel')
            : t('login.secondFactor.codeLabel', { count: TOTP_CODE_LENGTH })}
        </span>
        {recovery ? (
          <input
            key="recovery"
            ref={inputRef}
            type="text"
            name="recoveryCode"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the code is asked right after the password, in the same sign-in dialog
            autoFocus
            aria-describedby={hintId}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        ) : (
          <OneTimeCodeInput
            key="totp"
            ref={inputRef}
            // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the code is asked right after the password, in the same sign-in dialog
            autoFocus
            aria-describedby={hintId}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        )}
      </label>
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
        {t('login.secondFactor.submit')}
      </button>
      <div className="second-factor__switches">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setRecovery((value) => !value);
            setCode('');
          }}
        >
          {recovery ? t('login.secondFactor.useApp') : t('login.secondFactor.useRecovery')}
        </button>
        <button type="button" className="link-button" onClick={onBack}>
          {backLabel ?? t('login.secondFactor.back')}
        </button>
      </div>
    </form>
  );
}
