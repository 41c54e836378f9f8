import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FieldMessage,
  invalidFieldProps,
  messageFor,
  useFocusField,
} from '../../../components/field-message';
import { serverMessage, type ServerMessage } from '../../../lib/server-message';
import { useChangePassword } from '../api/change-password';
import { useSecondFactor } from '../api/second-factor';
import { SectionMessages, SettingsSection } from './settings-section';
import '../../../lib/panel-texts';

/** The fields of a password change, by the name the server gives them (`body.newPassword`). */
type PasswordField = 'currentPassword' | 'newPassword';

/** The message after a change, naming what else ended. */
function changedText(signedOut: boolean, revoked: boolean) {
  if (signedOut && revoked) return 'settings.password.changedEverywhereAndTokens' as const;
  if (signedOut) return 'settings.password.changedEverywhere' as const;
  if (revoked) return 'settings.password.changedAndTokens' as const;
  return 'settings.password.changed' as const;
}

/**
 * Changing one's password, and on request signing out everywhere else and revoking every
 * access token (both ticked by default: whoever changes a password often fears that
 * someone else has it, and a token made with it would outlive the change).
 */
export function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangePassword();
  // The same answer tells whether the account has a password at all.
  const account = useSecondFactor();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [revokeTokens, setRevokeTokens] = useState(true);
  // A refused field's message shows under it; any other under the section (decision 0055).
  const [error, setError] = useState<ServerMessage<PasswordField> | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const formId = useId();
  const fieldId = (field: PasswordField) => `${formId}-${field}`;
  useFocusField(error, fieldId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      await change.mutateAsync({
        currentPassword: current,
        newPassword: next,
        signOutOtherSessions: signOutOthers,
        revokeAccessTokens: revokeTokens,
      });
      setCurrent('');
      setNext('');
      setNotice(t(changedText(signOutOthers, revokeTokens)));
    } catch (failure) {
      setError(
        serverMessage<PasswordField>(failure, {
          currentPassword: t('settings.password.current'),
          newPassword: t('settings.password.new'),
        }) ?? { field: null, text: t('settings.failed') },
      );
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
            id={fieldId('currentPassword')}
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
            {...invalidFieldProps(fieldId('currentPassword'), messageFor(error, 'currentPassword'))}
          />
        </label>
        <FieldMessage
          fieldId={fieldId('currentPassword')}
          message={messageFor(error, 'currentPassword')}
        />
        <label className="field">
          <span>{t('settings.password.new')}</span>
          <input
            id={fieldId('newPassword')}
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.target.value)}
            {...invalidFieldProps(fieldId('newPassword'), messageFor(error, 'newPassword'))}
          />
        </label>
        <FieldMessage fieldId={fieldId('newPassword')} message={messageFor(error, 'newPassword')} />
        <p className="hint">{t('settings.password.hint')}</p>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={signOutOthers}
            onChange={(event) => setSignOutOthers(event.target.checked)}
          />
          <span>{t('settings.password.signOutOthers')}</span>
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={revokeTokens}
            aria-describedby="password-revoke-tokens-hint"
            onChange={(event) => setRevokeTokens(event.target.checked)}
          />
          <span>{t('settings.password.revokeTokens')}</span>
        </label>
        <p className="hint" id="password-revoke-tokens-hint">
          {t('settings.password.revokeTokensHint')}
        </p>
        <button type="submit" className="button" disabled={change.isPending}>
          {t('settings.password.submit')}
        </button>
      </form>
      <SectionMessages error={error && !error.field ? error.text : null} notice={notice} />
    </SettingsSection>
  );
}
