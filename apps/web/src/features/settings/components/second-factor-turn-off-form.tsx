import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDisableSecondFactor } from '../api/second-factor';
import { OneTimeCodeInput } from '../../../components/one-time-code-input';
import '../../../lib/panel-texts';

/** Turning two-step sign-in off, with a code from the app or the password. */
export function TurnOffForm({
  onDone,
  onCancel,
  onError,
}: {
  onDone: () => void;
  onCancel: () => void;
  onError: (failure: unknown) => void;
}) {
  const { t } = useTranslation();
  const disable = useDisableSecondFactor();
  const [withPassword, setWithPassword] = useState(false);
  const [value, setValue] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), [withPassword]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await disable.mutateAsync(withPassword ? { password: value } : { code: value.trim() });
      onDone();
    } catch (failure) {
      setValue('');
      inputRef.current?.focus();
      onError(failure);
    }
  }

  return (
    <form className="settings-form settings-form--stacked" onSubmit={submit} noValidate>
      <p className="hint">{t('settings.secondFactor.turnOffHint')}</p>
      <label className="field">
        <span className="field__label">
          {withPassword
            ? t('settings.secondFactor.passwordLabel')
            : t('settings.secondFactor.codeLabel')}
        </span>
        {withPassword ? (
          <input
            key="password"
            ref={inputRef}
            type="password"
            name="password"
            autoComplete="current-password"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        ) : (
          <OneTimeCodeInput
            key="code"
            ref={inputRef}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        )}
      </label>
      <div className="settings-form__actions">
        <button
          type="submit"
          className="button button--danger"
          disabled={disable.isPending}
          aria-busy={disable.isPending}
        >
          {t('settings.secondFactor.turnOffSubmit')}
        </button>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setWithPassword((current) => !current);
            setValue('');
          }}
        >
          {withPassword
            ? t('settings.secondFactor.useCode')
            : t('settings.secondFactor.usePassword')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('settings.secondFactor.cancel')}
        </button>
      </div>
    </form>
  );
}
