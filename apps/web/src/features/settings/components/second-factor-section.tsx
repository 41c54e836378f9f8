import type { SecondFactorSetupResponse } from '@signpost/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSecondFactor, useSetUpSecondFactor } from '../api/second-factor';
import { failureText } from '../api/settings-keys';
import { RecoveryCodes } from './second-factor-recovery-codes';
import { SetupForm } from './second-factor-setup-form';
import { SectionMessages, SettingsSection } from './settings-section';
import { TurnOffForm } from './second-factor-turn-off-form';
import '../../../lib/panel-texts';

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
