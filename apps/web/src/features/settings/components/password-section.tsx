import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useChangePassword } from '../api/change-password';
import { useSecondFactor } from '../api/second-factor';
import { failureText } from '../api/settings-keys';
import { SectionMessages, SettingsSection } from './settings-section';

/** Changing one's password, and on request signing out everywhere else. */
export function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangePassword();
  // The same answer tells whether the account has a password at all.
  const account = useSecondFactor();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      await change.mutateAsync({
        currentPassword: current,
        newPassword: next,
        signOutOtherSessions: signOutOthers,
      });
      setCurrent('');
      setNext('');
      setNotice(
        t(signOutOthers ? 'settings.password.changedEverywhere' : 'settings.password.changed'),
      );
    } catch (failure) {
      setError(failureText(failure, t('settings.failed')));
    }
  }

  if (account.data && !account.data.available) {
    return (
      <SettingsSection title={t('settings.password.title')}>
        <p>{t('settings.password.none')}</p>
      </SettingsSection>
    );
  }
  return (
    <SettingsSection title={t('settings.password.title')}>
      <form
        className="settings-form settings-form--stacked"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <label className="field">
          <span>{t('settings.password.current')}</span>
          <input
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
          />
        </label>
        <label className="field">
          <span>{t('settings.password.new')}</span>
          <input
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.target.value)}
          />
        </label>
        <p className="hint">{t('settings.password.hint')}</p>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={signOutOthers}
            onChange={(event) => setSignOutOthers(event.target.checked)}
          />
          <span>{t('settings.password.signOutOthers')}</span>
        </label>
        <button type="submit" className="button" disabled={change.isPending}>
          {t('settings.password.submit')}
        </button>
      </form>
      <SectionMessages error={error} notice={notice} />
    </SettingsSection>
  );
}
