import type { SecondFactorSetupResponse } from '@signpost/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TOTP_CODE_LENGTH } from '../../../lib/constants';
import {
  useDisableSecondFactor,
  useEnableSecondFactor,
  useSecondFactor,
  useSetUpSecondFactor,
} from '../api/second-factor';
import { failureText } from '../api/settings-keys';
import { CopyButton } from './copy-button';
import { SectionMessages, SettingsSection } from './settings-section';

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
 * Two-step sign-in: set it up (the key to type, the otpauth address, a code to confirm),
 * see the recovery codes once, or turn it off with a code or the password.
 */
export function SecondFactorSection() {
  const { t } = useTranslation();
  const status = useSecondFactor();
  const setUp = useSetUpSecondFactor();
  const [setup, setSetup] = useState<SecondFactorSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  function report(failure: unknown) {
    setNotice(null);
    setError(failureText(failure, t('settings.failed')));
  }

  async function start() {
    setError(null);
    setNotice(null);
    try {
      setSetup(await setUp.mutateAsync());
    } catch (failure) {
      report(failure);
    }
  }

  let body;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(null);
          setNotice(t('settings.secondFactor.turnedOn'));
        }}
      />
    );
  } else if (status.isPending) {
    body = <p className="hint">{t('portal.loading')}</p>;
  } else if (status.isError) {
    body = (
      <p className="form-error">
        {t('settings.loadFailed')}{' '}
        <button type="button" className="link-button" onClick={() => void status.refetch()}>
          {t('settings.retry')}
        </button>
      </p>
    );
  } else if (!status.data.available) {
    body = <p>{t('settings.secondFactor.unavailable')}</p>;
  } else if (status.data.enabled) {
    body = (
      <>
        <p>
          <strong>{t('settings.secondFactor.on')}</strong>{' '}
          {t('settings.secondFactor.recoveryLeft', { count: status.data.recoveryCodesLeft })}
        </p>
        {turningOff ? (
          <TurnOffForm
            onDone={() => {
              setTurningOff(false);
              setError(null);
              setNotice(t('settings.secondFactor.turnedOff'));
            }}
            onCancel={() => setTurningOff(false)}
            onError={report}
          />
        ) : (
          <button
            type="button"
            className="button"
            onClick={() => {
              setError(null);
              setNotice(null);
              setTurningOff(true);
            }}
          >
            {t('settings.secondFactor.turnOff')}
          </button>
        )}
      </>
    );
  } else if (setup) {
    body = (
      <SetupForm
        setup={setup}
        onEnabled={(codes) => {
          setSetup(null);
          setError(null);
          setRecoveryCodes(codes);
        }}
        onCancel={() => setSetup(null)}
        onError={report}
      />
    );
  } else {
    body = (
      <>
        <p>{t('settings.secondFactor.off')}</p>
        <p className="hint">{t('settings.secondFactor.intro')}</p>
        <button
          type="button"
          className="button button--primary"
          disabled={setUp.isPending}
          aria-busy={setUp.isPending}
          onClick={() => void start()}
        >
          {t('settings.secondFactor.setUp')}
        </button>
      </>
    );
  }

  return (
    <SettingsSection title={t('settings.secondFactor.title')}>
      {body}
      <SectionMessages error={error} notice={notice} />
    </SettingsSection>
  );
}

function SetupForm({
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
        <input
          ref={codeRef}
          type="text"
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={TOTP_CODE_LENGTH + 4}
          spellCheck={false}
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

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);
  return (
    <div className="created-secret">
      <h4 ref={titleRef} tabIndex={-1}>
        {t('settings.secondFactor.recoveryTitle')}
      </h4>
      <p className="created-secret__warning">
        <strong>{t('settings.secondFactor.recoveryText')}</strong>
      </p>
      <ul className="recovery-codes" aria-label={t('settings.secondFactor.recoveryTitle')}>
        {codes.map((code) => (
          <li key={code}>
            <code className="secret-text">{code}</code>
          </li>
        ))}
      </ul>
      <div className="settings-form__actions">
        <CopyButton text={codes.join('\n')} label={t('settings.secondFactor.copyCodes')} />
        <button type="button" className="button button--primary" onClick={onDone}>
          {t('settings.secondFactor.saved')}
        </button>
      </div>
    </div>
  );
}

function TurnOffForm({
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
          <input
            key="code"
            ref={inputRef}
            type="text"
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            spellCheck={false}
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
