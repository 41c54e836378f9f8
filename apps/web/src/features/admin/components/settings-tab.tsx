import type { OrganizationSettings, UpdateOrganizationBody } from '@signpost/contract';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorField, errorMessage } from '../../../lib/api-client';
import { useOrganizationSettings, useSaveOrganizationSettings } from '../api/settings';
import { ScimSection } from './settings-scim';
import { SsoGroupsSection } from './settings-sso-groups';
import '../../../lib/panel-texts';

type Field = Exclude<keyof UpdateOrganizationBody, never>;
const FIELDS: Field[] = [
  'name',
  'feedbackUrl',
  'consentUrl',
  'personalIntro',
  'teamIntro',
  'organizationIntro',
  'passwordSignIn',
  'ssoDomains',
  'auditRetentionDays',
];

/** The field a server refusal names (`body.feedbackUrl …` or `body/feedbackUrl …`), if any. */
export function fieldOfMessage(message: string, data?: unknown): Field | null {
  // The server names the field (decision 0078); a message of before names it by its path.
  const name = (errorField(data) ?? /body[./]([A-Za-z]+)/.exec(message)?.[1]) as Field | undefined;
  return name && FIELDS.includes(name) ? name : null;
}

interface Draft {
  name: string;
  feedbackUrl: string;
  consentUrl: string;
  personalIntro: string;
  teamIntro: string;
  organizationIntro: string;
  passwordSignIn: boolean;
  ssoDomains: string;
  auditRetentionDays: string;
}

const draftOf = (s: OrganizationSettings): Draft => ({
  name: s.name,
  feedbackUrl: s.feedbackUrl ?? '',
  consentUrl: s.consentUrl ?? '',
  personalIntro: s.intros.personal,
  teamIntro: s.intros.team,
  organizationIntro: s.intros.organization,
  passwordSignIn: s.passwordSignIn,
  ssoDomains: s.ssoDomains.join('\n'),
  auditRetentionDays: String(s.auditRetentionDays),
});

/** Only what changed, in the shape of the PATCH body. */
function changed(before: Draft, after: Draft): UpdateOrganizationBody {
  const body: UpdateOrganizationBody = {};
  if (after.name !== before.name) body.name = after.name;
  if (after.feedbackUrl !== before.feedbackUrl) body.feedbackUrl = after.feedbackUrl || null;
  if (after.consentUrl !== before.consentUrl) body.consentUrl = after.consentUrl || null;
  if (after.personalIntro !== before.personalIntro) body.personalIntro = after.personalIntro;
  if (after.teamIntro !== before.teamIntro) body.teamIntro = after.teamIntro;
  if (after.organizationIntro !== before.organizationIntro) {
    body.organizationIntro = after.organizationIntro;
  }
  if (after.passwordSignIn !== before.passwordSignIn) body.passwordSignIn = after.passwordSignIn;
  if (after.ssoDomains !== before.ssoDomains) {
    body.ssoDomains = after.ssoDomains
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean);
  }
  if (after.auditRetentionDays !== before.auditRetentionDays) {
    body.auditRetentionDays = Number(after.auditRetentionDays);
  }
  return body;
}

/**
 * The console's organization tab: the settings form, with the server's field errors, and
 * provisioning by the organization's identity system (SCIM), and the teams and role that
 * single sign-on groups give.
 */
export function SettingsTab() {
  const { t } = useTranslation('admin');
  const settings = useOrganizationSettings();
  if (settings.isPending) return <p className="hint">{t('console.loading')}</p>;
  if (settings.isError) return <p className="form-error">{t('console.loadFailed')}</p>;
  return (
    <>
      <SettingsForm settings={settings.data} />
      <ScimSection />
      <SsoGroupsSection />
    </>
  );
}

function SettingsForm({ settings }: { settings: OrganizationSettings }) {
  const { t } = useTranslation('admin');
  const save = useSaveOrganizationSettings();
  const saved = draftOf(settings);
  const [draft, setDraft] = useState<Draft>(saved);
  const [fieldError, setFieldError] = useState<{ field: Field | null; message: string } | null>(
    null,
  );
  const [notice, setNotice] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFieldError(null);
    setNotice(null);
    const body = changed(saved, draft);
    if (Object.keys(body).length === 0) return;
    try {
      const stored = await save.mutateAsync(body);
      setDraft(draftOf(stored));
      setNotice(t('settings.saved'));
    } catch (failure) {
      const message =
        failure instanceof ApiError && failure.status < 500
          ? (errorMessage(failure.data) ?? t('settings.failed'))
          : t('settings.failed');
      const data = failure instanceof ApiError ? failure.data : undefined;
      setFieldError({ field: fieldOfMessage(message, data), message });
    }
  }

  const errorFor = (field: Field) => (fieldError?.field === field ? fieldError.message : null);
  const text = (
    field: Exclude<keyof Draft, 'passwordSignIn'>,
    label: string,
    hint?: string,
    area = false,
  ) => (
    <Labelled label={label} hint={hint} error={errorFor(field as Field)}>
      {(props) =>
        area ? (
          <textarea {...props} value={draft[field]} onChange={(e) => set(field, e.target.value)} />
        ) : (
          <input {...props} value={draft[field]} onChange={(e) => set(field, e.target.value)} />
        )
      }
    </Labelled>
  );

  return (
    <form className="admin-settings" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h2 className="admin-tab__title">{t('settings.title')}</h2>
      {settings.publicAddressWarning ? (
        <p className="admin-warning" role="note">
          {settings.publicAddressWarning}
        </p>
      ) : null}
      {text('name', t('settings.name'))}
      {text('feedbackUrl', t('settings.feedbackUrl'), t('settings.feedbackHint'))}
      {text('consentUrl', t('settings.consentUrl'), t('settings.consentHint'))}
      <fieldset>
        <legend>{t('settings.intros')}</legend>
        <p className="hint">{t('settings.introHint')}</p>
        {text('personalIntro', t('settings.personalIntro'), undefined, true)}
        {text('teamIntro', t('settings.teamIntro'), undefined, true)}
        {text('organizationIntro', t('settings.organizationIntro'), undefined, true)}
      </fieldset>
      <fieldset>
        <legend>{t('settings.signIn')}</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.passwordSignIn}
            aria-describedby="admin-settings-password-hint"
            onChange={(e) => set('passwordSignIn', e.target.checked)}
          />
          {t('settings.passwordSignIn')}
        </label>
        <p id="admin-settings-password-hint" className="hint">
          {t('settings.passwordSignInHint')}
          {settings.ssoConfigured ? '' : ` ${t('settings.noSso')}`}
        </p>
        {errorFor('passwordSignIn') ? (
          <p className="form-error">{errorFor('passwordSignIn')}</p>
        ) : null}
        {text('ssoDomains', t('settings.ssoDomains'), t('settings.ssoDomainsHint'), true)}
      </fieldset>
      {text('auditRetentionDays', t('settings.retention'))}
      <p role="alert" className="form-error">
        {fieldError && fieldError.field === null ? fieldError.message : null}
      </p>
      <p role="status" className="hint">
        {notice}
      </p>
      <button type="submit" className="button button--primary" disabled={save.isPending}>
        {t('settings.save')}
      </button>
    </form>
  );
}

interface FieldProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

/** A labelled field with its hint and the server's error for it. */
function Labelled({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error: string | null;
  children: (props: FieldProps) => ReactNode;
}) {
  const id = `admin-settings-${label.replace(/\W+/g, '-').toLowerCase()}`;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': described || undefined })}
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
