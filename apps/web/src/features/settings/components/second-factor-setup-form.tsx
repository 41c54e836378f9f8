import type { SecondFactorSetupResponse } from '@signpost/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TOTP_CODE_LENGTH } from '../../../lib/constants';
import { useEnableSecondFactor } from '../api/second-factor';
import { CopyButton } from '../../../components/copy-button';
import { OneTimeCodeInput } from '../../../components/one-time-code-input';
import { QrCode } from './qr-code';
import '../../../lib/panel-texts';

/** The secret in groups of four, as authenticator apps show it and people type it. */
export function groupSecret(secret: string) {
  return (
    secret
      .replace(/\s+/g, '')
      .match(/.{1,4}/g)
      ?.join(' ') ?? secret
  );
}

/**
 * Setting up two-step sign-in: a QR code to scan, and for those who cannot scan the key to
 * type or the otpauth address to copy; then a code from the app to confirm. A wrong code clears the field and is reported through onError.
 */
export function SetupForm({
  setup,
  onEnabled,
  onCancel,
  onError,
}: {
  setup: SecondFactorSetupResponse;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
  onError: (failure: unknown) => void;
}) {
  const { t } = useTranslation();
  const enable = useEnableSecondFactor();
  const [code, setCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);
  const secretRef = useRef<HTMLElement>(null);
  useEffect(() => secretRef.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const answer = await enable.mutateAsync(code.trim());
      onEnabled(answer.recoveryCodes);
    } catch (failure) {
      setCode('');
      codeRef.current?.focus();
      onError(failure);
    }
  }

  return (
    <form className="settings-form settings-form--stacked" onSubmit={submit} noValidate>
      <p>{t('settings.secondFactor.step1')}</p>
      <QrCode text={setup.otpauthUrl} label={t('settings.secondFactor.qrLabel')} />
      <p>{t('settings.secondFactor.manual')}</p>
      <p className="secret-line">
        <span className="field__label">{t('settings.secondFactor.secretLabel')}</span>{' '}
        <code ref={secretRef} tabIndex={-1} className="secret-text secret-text--key">
          {groupSecret(setup.secret)}
        </code>{' '}
        <CopyButton text={setup.secret} />
      </p>
      <p className="hint">{t('settings.secondFactor.uriLabel')}</p>
      <p className="secret-line">
        <code className="secret-text secret-text--uri">{setup.otpauthUrl}</code>{' '}
        <CopyButton text={setup.otpauthUrl} />
      </p>
      <p>{t('settings.secondFactor.step2')}</p>
      <label className="field">
        <span className="field__label">{t('settings.secondFactor.codeLabel')}</span>
        <OneTimeCodeInput
          ref={codeRef}
          maxLength={TOTP_CODE_LENGTH + 4}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </label>
      <div className="settings-form__actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={enable.isPending}
          aria-busy={enable.isPending}
        >
          {t('settings.secondFactor.enable')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('settings.secondFactor.cancel')}
        </button>
      </div>
    </form>
  );
}
