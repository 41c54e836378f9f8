import type { CompleteSetupBody } from '@signpost/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { config } from '../../../lib/config';
import { completeSetup, fieldOfRefusal, type SetupField } from '../api/complete-setup';
import { setupStatusQueryOptions } from '../api/setup-status';
import '../setup.css';
import '../../../lib/panel-texts';

const EMPTY: CompleteSetupBody = {
  organizationName: '',
  name: '',
  email: '',
  password: '',
  setupCode: '',
};

const STATUS_CONFLICT = 409;

/**
 * The first run (no organization yet): the organization's name, the first administrator's
 * name, e-mail and password, and the one-time code from the server's log. On success the
 * administrator is signed in and lands in the empty portal.
 */
export function SetupScreen() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: SetupField; message: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  /** Back to the login screen: the installation has its organization. */
  const toSignIn = () => client.setQueryData(setupStatusQueryOptions.queryKey, { required: false });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFieldError(null);
    try {
      const result = await completeSetup(values);
      // Signed in (or not, after a failed token check): either way setup is over.
      client.setQueryData(setupStatusQueryOptions.queryKey, { required: false });
      if (result.error) setError(result.msg);
    } catch (failure) {
      const status = failure instanceof ApiError ? failure.status : 0;
      const message =
        (failure instanceof ApiError ? errorMessage(failure.data) : null) ?? t('setup.failed');
      if (status === STATUS_CONFLICT) {
        setDone(true);
        setError(message);
        return;
      }
      const field = fieldOfRefusal(failure instanceof ApiError ? failure.data : null, message);
      if (field) setFieldError({ field, message });
      else setError(message);
    } finally {
      setBusy(false);
    }
  }

  const field = (
    name: SetupField,
    label: string,
    input: { type?: string; autoComplete?: string },
    hint?: string,
  ) => {
    const invalid = fieldError?.field === name;
    const described = [hint ? `${id}-${name}-hint` : null, invalid ? `${id}-${name}-error` : null]
      .filter(Boolean)
      .join(' ');
    return (
      <div className="field">
        <label className="field__label" htmlFor={`${id}-${name}`}>
          {label}
        </label>
        <input
          id={`${id}-${name}`}
          name={name}
          type={input.type ?? 'text'}
          autoComplete={input.autoComplete}
          value={values[name]}
          aria-invalid={invalid || undefined}
          aria-describedby={described || undefined}
          disabled={done}
          onChange={(event) => {
            const value = event.target.value;
            setValues((current) => ({ ...current, [name]: value }));
            if (invalid) setFieldError(null);
          }}
        />
        {hint ? (
          <span id={`${id}-${name}-hint`} className="hint">
            {hint}
          </span>
        ) : null}
        {invalid ? (
          <span id={`${id}-${name}-error`} className="field__error">
            {fieldError.message}
          </span>
        ) : null}
      </div>
    );
  };

  return (
    <main className="login setup">
      <p className="login__brand">{config.brand}</p>
      <section className="login__modal" aria-labelledby={`${id}-title`}>
        <h1 id={`${id}-title`}>{t('setup.title', { brand: config.brand })}</h1>
        <p className="setup__intro">{t('setup.intro')}</p>
        <div className="login__error" role="alert" aria-live="assertive">
          {error}
        </div>
        {done ? (
          <button type="button" className="button button--primary" onClick={toSignIn}>
            {t('setup.toSignIn')}
          </button>
        ) : (
          <form className="login-form" onSubmit={(event) => void submit(event)} noValidate>
            {field('organizationName', t('setup.organizationName'), {
              autoComplete: 'organization',
            })}
            {field('name', t('setup.name'), { autoComplete: 'name' })}
            {field('email', t('setup.email'), { type: 'email', autoComplete: 'username' })}
            {field(
              'password',
              t('setup.password'),
              { type: 'password', autoComplete: 'new-password' },
              t('setup.passwordHint'),
            )}
            {field(
              'setupCode',
              t('setup.setupCode'),
              { autoComplete: 'one-time-code' },
              t('setup.setupCodeHint'),
            )}
            <button
              type="submit"
              className="button button--primary"
              disabled={busy}
              aria-busy={busy}
            >
              {busy ? t('setup.submitting') : t('setup.submit')}
            </button>
          </form>
        )}
      </section>
    </main>
  );
}
